import type { Logger } from "pino";
import { isDatabaseDown } from "../database-down.js";

/**
 * pg-boss 10 marks a job done or failed after its handler without awaiting it (manager.js,
 * work(): `this.complete(...)`, `this.fail(...)`): when the database is lost at that moment
 * (PostgreSQL killed or restarting), the rejection is unhandled and Node ends the whole server
 * (found by the PostgreSQL crash campaign). Such a job stays "active"; pg-boss expires it and
 * runs it again, as it does for a server that died mid-job, so the lost write is only logged.
 * The same when the server is stopping: a job still running when Jobs.stop's wait ended marks
 * itself after the server closed its pool (pg-pool refuses the query). Any other unhandled
 * rejection is thrown on, as Node would (a listener turns its default off).
 */
export function isLostJobCompletion(reason: unknown): boolean {
  const stack = reason instanceof Error ? (reason.stack ?? "") : "";
  return (
    (isDatabaseDown(reason) || isPoolClosed(reason)) && /Manager\.(complete|fail) /.test(stack)
  );
}

// pg-pool's error for a query asked of a pool after its end() (pg-pool/index.js).
function isPoolClosed(reason: unknown): boolean {
  return (
    reason instanceof Error && reason.message === "Cannot use a pool after calling end on the pool"
  );
}

let guarded = false;

/** Installs the guard once per process (every Jobs.start calls it). */
export function guardLostJobCompletions(log: Logger): void {
  if (guarded) return;
  guarded = true;
  process.on("unhandledRejection", (reason) => {
    if (!isLostJobCompletion(reason)) throw reason;
    log.warn(
      { err: reason },
      "background jobs: a job's completion was lost with the database; pg-boss will retry the job",
    );
  });
}
