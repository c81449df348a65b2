import type { Build, BuildList } from "@assay/core";
import { AppError, notFound } from "../../errors.js";
import * as repo from "./builds.repo.js";
import {
  recordBuild,
  usableHost,
  validatePayload,
  type BuildsDeps,
  type Starter,
} from "./builds.service.js";

/**
 * A rerun: a build of only the run's failed (or unstable) tests, reporting into the same run as
 * new attempts (ASSAY_ATTEMPT), so the last attempt decides and a pass marks the test flaky. The
 * other values are the run's last build's, else the run's own, checked by the same rules. The
 * Daily Run Scheduler's automatic rerun passes its starter and the rerun-failed executor name.
 */
export async function rerun(
  deps: BuildsDeps,
  family: "frontend" | "backend",
  key: string,
  tests: "failed" | "unstable",
  user: Starter,
  executor?: string,
): Promise<Build> {
  const run = await repo.findRun(deps.db, key);
  if (!run || run.family !== family) {
    throw notFound(`There is no ${family} run "${key}".`);
  }
  const ids = await repo.failedTestIds(deps.db, run.id, family === "backend" ? "any" : tests);
  if (ids.length === 0) {
    throw new AppError(409, "nothing_to_rerun", `Run "${key}" has no ${tests} tests to rerun.`);
  }
  const tag = ids.map((id) => `TC${id}`).join(",");
  const previous = (
    await repo.listBuilds(
      deps.db,
      { family, region: run.is_china_region ? "CHINA" : "US", testRunKey: key },
      1,
      1,
    )
  ).rows[0];
  const before = previous?.payload ?? {};
  const named = executor === undefined ? {} : { executor };
  const list: BuildList =
    family === "backend" ? "backend" : run.is_china_region ? "china" : "frontend";
  const body =
    family === "backend"
      ? {
          mode: "by_tags",
          tag,
          env: before.env ?? run.env ?? usableHost(run.baseurl),
          branch: before.branch ?? run.branch ?? "master",
          parallel_runners: before.parallel_runners ?? 1,
          ...named,
        }
      : {
          mode: "by_tags",
          tag,
          nora_site: before.nora_site ?? usableHost(run.nora_site),
          branch: before.branch ?? run.branch ?? "master",
          parallel_runners: before.parallel_runners ?? 1,
          isNextGen: before.isNextGen ?? run.is_next_gen,
          ...(before.database_host === undefined ? {} : { database_host: before.database_host }),
          ...named,
        };
  let payload: Record<string, unknown>;
  try {
    payload = await validatePayload(deps, list, user, body);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    throw new AppError(
      409,
      "cannot_rerun",
      `Run "${key}" cannot be rerun as it is: ${error.message}. Start a new build instead.`,
    );
  }
  const attempt = (await repo.highestAttempt(deps.db, run.id, key)) + 1;
  return recordBuild(deps, user, { list, payload, testRunKey: key, attempt, rerunOf: tests });
}
