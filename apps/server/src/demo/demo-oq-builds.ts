import type { Db } from "../db/pool.js";
import { recordFinishedBuilds } from "../modules/builds/oq-builds.repo.js";
import type { PlannedRun } from "./demo-run-types.js";
import { DEMO_VERSIONS } from "./demo-trackers.js";

/**
 * The demo's OQ builds: some of the stage NextGen daily runs, recorded as the OQ Test builds
 * that ran them for a release, so the Nora Releases report counts OQ runs on a fresh start.
 * Most name their Jira release; 7.3.1's name only their Spira release (ReleaseId 100 + the
 * version's place in DEMO_VERSIONS, as the demo Spira numbers them), so that path is shown too.
 * The builds are recorded as finished: nothing is started for them.
 */

/** The releases of the OQ runs, oldest run first: 7.0.0 to 7.1.1 have none. */
export const DEMO_OQ_RELEASES = [
  "7.2.0",
  "7.2.0",
  "7.3.0",
  "7.3.0",
  "7.3.0",
  "7.3.1",
  "7.4.0",
  "7.4.0",
  "7.4.0",
] as const;
const SPIRA_ONLY = new Set(["7.3.1"]);
/** Days between two OQ runs. */
const EVERY = 6;

/** The planned runs an OQ build ran, with its release: every 6th stage NextGen daily run. */
export function demoOqRuns(runs: readonly PlannedRun[]): { run: PlannedRun; version: string }[] {
  const stage = runs.filter(
    (run) => run.kind === "daily" && run.suite === "nextGen" && run.site?.startsWith("stage."),
  );
  const picked: PlannedRun[] = [];
  for (let i = stage.length - 1; i >= 0 && picked.length < DEMO_OQ_RELEASES.length; i -= EVERY)
    picked.unshift(stage[i]!);
  return picked.map((run, i) => ({ run, version: DEMO_OQ_RELEASES[i]! }));
}

export async function recordDemoOqBuilds(db: Db, runs: readonly PlannedRun[]): Promise<number> {
  const oq = demoOqRuns(runs);
  await recordFinishedBuilds(
    db.kysely,
    oq.map(({ run, version }) => {
      const releaseId = 100 + DEMO_VERSIONS.indexOf(version);
      const payload = {
        mode: "oq_test",
        branch: run.branch,
        nora_site: run.site,
        parallel_runners: 1,
        enable_coverage: false,
        isNextGen: true,
        releaseId,
        ...(SPIRA_ONLY.has(version) ? {} : { jiraRelease: version }),
        executor: run.executor,
      };
      return {
        family: "frontend" as const,
        region: "US" as const,
        executor_kind: "local" as const,
        test_run_key: run.key,
        mode: "oq_test",
        test_run_name: run.name,
        executor: run.executor,
        source_version: run.branch,
        nora_site: run.site ?? null,
        payload: JSON.stringify(payload),
        started_by_email: "demo@assay.invalid",
        started_by_name: "Assay demo",
        current_phase: "COMPLETED",
        build_status: "SUCCEEDED",
        start_time: run.start,
        end_time: run.end,
        deadline: run.end,
      };
    }),
  );
  return oq.length;
}
