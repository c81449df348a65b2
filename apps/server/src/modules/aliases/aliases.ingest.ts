import type pg from "pg";
import { AppError } from "../../errors.js";
import type { Jobs } from "../../jobs/jobs.js";
import type { RegisteredTests } from "../ingest/ingest.service.js";
import { queueRenameSearch } from "./aliases.jobs.js";
import { addAlias } from "./aliases.service.js";
import * as scan from "./scan.repo.js";

/** Who made the aliases found at ingest, in the journal. */
export const INGEST_AUTHOR = "ingest";

/**
 * A stored run's part in aliases, in the upload's transaction: the new tests' stable keys
 * (an alias when the key was another test's: that test was renamed), and a job that looks for
 * suggested renames after COMMIT (aliases.jobs.ts). A rename always brings a new test, so an
 * upload that registered none costs nothing here; the key reads probe the new tests' results in
 * the run's month by test id, one probe per new test.
 */
export async function recordRunAliases(
  client: pg.PoolClient,
  jobs: Jobs,
  runId: number,
  registered: RegisteredTests,
): Promise<void> {
  if (registered.count === 0) return;
  const createdAt = await scan.transactionTime(client);
  const allKept = registered.count <= registered.ids.length;
  await queueRenameSearch(client, jobs, {
    runId,
    createdAt,
    ids: allKept ? [...registered.ids] : null,
  });
  // Past the ids ingest keeps (a first upload of a large suite), no key is read: such an upload
  // keeps its time (docs/aliases.md).
  if (!allKept) return;
  const keyed = await scan.newKeyedTests(client, runId, registered.ids);
  for (const test of keyed) {
    if (test.known_id === null) continue;
    await aliasInSavepoint(client, test.known_id, test.test_id, test.stable_key);
  }
  await scan.saveStableKeys(client, keyed);
}

/**
 * An alias from a stable key, unless the rules refuse it (the old test already an alias of
 * another, a cycle): the upload is not refused for it, the key simply moves to the new test.
 */
async function aliasInSavepoint(
  client: pg.PoolClient,
  oldId: number,
  newId: number,
  stableKey: string,
): Promise<void> {
  await client.query("SAVEPOINT alias");
  try {
    await addAlias(client, {
      testId: oldId,
      canonicalId: newId,
      source: "stable_id",
      stableKey,
      createdBy: INGEST_AUTHOR,
    });
    await client.query("RELEASE SAVEPOINT alias");
  } catch (error) {
    await client.query("ROLLBACK TO SAVEPOINT alias");
    if (!(error instanceof AppError)) throw error;
  }
}
