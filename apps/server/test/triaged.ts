import type { Db } from "../src/db/pool.js";
import { until } from "./until.js";

/**
 * Until no run waits for triage: a server triages the runs it stored after their commit, in the
 * background (triage/pending.service.ts), so a test reading triage's tables itself, rather than
 * through a route that waits, waits here first. Polls; takes no lock, so the run is triaged by
 * the server's own after-commit work, as in production.
 */
export async function triaged(db: Db): Promise<void> {
  await until("the stored runs' triage", async () => {
    const { rowCount } = await db.pool.query("SELECT 1 FROM triage_pending LIMIT 1");
    return rowCount === 0 ? true : undefined;
  });
}
