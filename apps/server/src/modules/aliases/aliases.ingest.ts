import type pg from "pg";
import { AppError } from "../../errors.js";
import { addAlias } from "./aliases.service.js";
import * as scan from "./scan.repo.js";

/** Who made the aliases found at ingest, in the journal. */
export const INGEST_AUTHOR = "ingest";

/**
 * A stored run's part in aliases, in the upload's transaction: the new tests' stable keys
 * (an alias when the key was another test's: that test was renamed), then suggested renames.
 * A rename always brings a new test, so an upload that registered none costs nothing here.
 */
export async function recordRunAliases(
  client: pg.PoolClient,
  runId: number,
  facts: { registeredTests: number },
): Promise<void> {
  if (facts.registeredTests === 0) return;
  const keyed = await scan.newKeyedTests(client, runId);
  for (const test of keyed) {
    if (test.known_id === null) continue;
    await aliasInSavepoint(client, test.known_id, test.test_id, test.stable_key);
  }
  await scan.saveStableKeys(client, keyed);
  await scan.suggestRenames(client, runId);
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
