import { sql, type Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import { insertBuild, type NewBuild } from "./builds.repo.js";

/**
 * OQ builds by release, for the Nora Releases report: an OQ build (mode oq_test) names its
 * release by the OQ dialog's Jira release (payload.jiraRelease) and/or Spira release
 * (payload.releaseId). Its run is its test_run_key; a rerun keeps the key, so a run is counted
 * once however often it was rerun, under the release its first build named.
 */

export interface OqRunsOfRelease {
  jiraRelease: string | null;
  spiraReleaseId: number | null;
  runs: number;
}

export async function oqRunsByRelease(db: Kysely<Database>): Promise<OqRunsOfRelease[]> {
  // A run's first build names its release: a rerun of it (same key) is the same run.
  const runs = db
    .selectFrom("builds")
    .distinctOn("test_run_key")
    .select([
      "test_run_key",
      sql<string | null>`nullif(payload->>'jiraRelease', '')`.as("jira_release"),
      // The payload was validated as a positive integer when the build was recorded.
      sql<string | null>`payload->>'releaseId'`.as("release_id"),
    ])
    .where("mode", "=", "oq_test")
    .orderBy("test_run_key")
    .orderBy("id");
  const rows = await db
    .selectFrom(runs.as("r"))
    .select(["r.jira_release", "r.release_id", sql<string>`count(*)`.as("runs")])
    .groupBy(["r.jira_release", "r.release_id"])
    .execute();
  return rows.map((row) => {
    const id = row.release_id === null ? NaN : Number(row.release_id);
    return {
      jiraRelease: row.jira_release,
      spiraReleaseId: Number.isInteger(id) ? id : null,
      runs: Number(row.runs),
    };
  });
}

/**
 * Records builds that already ran (the demo's OQ builds of its runs): inserted as finished,
 * never queued, so no executor is started for them.
 */
export async function recordFinishedBuilds(
  db: Kysely<Database>,
  builds: readonly NewBuild[],
): Promise<void> {
  for (const build of builds) await insertBuild(db, build);
}
