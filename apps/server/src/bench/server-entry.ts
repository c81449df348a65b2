import { loadConfig } from "../config.js";
import { createLogger } from "../logger.js";
import { startServer } from "../server.js";

/*
 * The server process the bench starts: what `assay start` runs, without the CLI. It stops in
 * order on SIGTERM (HTTP, pool, embedded PostgreSQL) and also when the bench that started it is
 * gone or BENCH_SERVER_MAX_MS has passed, so it never outlives the bench.
 */

const config = loadConfig();
const log = createLogger(config.logLevel);
// BENCH_TRIAGE=off: uploads are stored without triage (write-bench.ts --compare-triage).
const server = await startServer(
  config,
  log,
  process.env.BENCH_TRIAGE === "off" ? { triage: false } : {},
);
const parent = process.ppid;

let stopping = false;
function stop(code: number): void {
  if (stopping) return;
  stopping = true;
  server.close().then(
    () => process.exit(code),
    (error: unknown) => {
      log.error({ err: error }, "bench server: shutdown failed");
      process.exit(1);
    },
  );
}

process.on("SIGTERM", () => stop(0));
process.on("SIGINT", () => stop(0));
setInterval(() => {
  if (process.ppid !== parent) stop(1);
}, 1000).unref();
const maxMs = Number(process.env.BENCH_SERVER_MAX_MS ?? 0);
if (maxMs > 0) setTimeout(() => stop(1), maxMs).unref();
log.warn({ url: server.url }, "bench server listening");
