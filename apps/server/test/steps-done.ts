import type { Db } from "../src/db/pool.js";
import { until } from "./until.js";

/**
 * Until no run waits for its work after the commit (triage, flaky's count): a server does it for
 * the runs it stored, in the background (modules/pending), so a test reading those tables
 * itself, rather than through a route that waits, waits here first. Polls; takes no lock, so the
 * work is done by the server's own after-commit steps, as in production.
 */
export async function stepsDone(db: Db): Promise<void> {
  await until("the stored runs' work after their commit", async () => {
    const { rowCount } = await db.pool.query("SELECT 1 FROM run_pending LIMIT 1");
    return rowCount === 0 ? true : undefined;
  });
}
