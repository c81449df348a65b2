export * from "./api.js";
export * from "./app-mode.js";
export * from "./catalog.js";
export * from "./duration.js";
export * from "./results.js";
export * from "./runs-api.js";
export * from "./status.js";
export * from "./ingest-api.js";
