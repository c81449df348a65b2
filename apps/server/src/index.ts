// What the CLI (apps/cli) uses of the server.
export { ConfigError, loadConfig, StartRefused, type Config } from "./config.js";
export { createLogger } from "./logger.js";
export { AppError } from "./errors.js";
export { migrateDatabase, startServer, withDatabase, type RunningServer } from "./server.js";
export {
  createToken,
  listTokens,
  revokeToken,
  TOKEN_SCOPES,
  type TokenScope,
} from "./modules/tokens/tokens.service.js";
export {
  createUser,
  DEFAULT_ADMIN_EMAIL,
  listUsers,
  type FirstAdmin,
  type UserRow,
} from "./modules/users/users.service.js";
export { disableUser, resetPassword } from "./modules/identity/account-changes.js";
export { MIN_PASSWORD_LENGTH, MAX_PASSWORD_LENGTH } from "./modules/users/password.js";
// The multipart encoder is its own entry point (@assay/server/multipart-body): `assay upload`
// loads it without the whole server (600 files under `ulimit -n 128` must still go).
export {
  backupInstallation,
  restoreInstallation,
  BackupRefused,
  type BackupSummary,
  type RestoreSummary,
} from "./backup/index.js";
export {
  estimateRetention,
  type RetentionEstimate,
} from "./modules/retention/retention.estimate.js";
export { runRetentionPass, type PassOutcome } from "./modules/retention/retention.pass.js";
export { retentionDeps } from "./retention-deps.js";
export { createObjectStore } from "./storage/index.js";
