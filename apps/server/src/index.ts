// What the CLI (apps/cli) uses of the server.
export { ConfigError, loadConfig, type Config } from "./config.js";
export { createLogger } from "./logger.js";
export { migrateDatabase, startServer, type RunningServer } from "./server.js";
