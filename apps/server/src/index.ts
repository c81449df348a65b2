// What the CLI (apps/cli) uses of the server.
export { ConfigError, loadConfig, type Config } from "./config.js";
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
export {
  multipartBody,
  READ_AHEAD,
  type MultipartBody,
  type MultipartFile,
  type FileOnDisk,
  type FileInMemory,
} from "./http/multipart-body.js";
