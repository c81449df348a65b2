import {
  flippedAt,
  isFlaky,
  UNSTABLE_TAG,
  type FlakyDetail,
  type FlakyQuery,
  type FlakySummary,
  type FlakyTest,
} from "@assay/core";
import type { FlakySettings } from "../../config-flaky.js";
import type { Db } from "../../db/pool.js";
import { runMoments } from "../runs/failures.service.js";
import { listTags } from "../tags/tags.service.js";
import type { TriageDeps } from "../triage/pending.service.js";
import { testFailureGroups } from "../triage/triage.service.js";
import * as repo from "./read.repo.js";
import { untilCounted } from "./stats.service.js";

const TREND_DAYS = 30;
const DAY_MS = 86_400_000;

const orNull = (text: string) => (text === "" ? null : text);

function toFlakyTest(row: repo.StatsView, runKeys: Map<number, string>): FlakyTest {
  return {
    testId: row.test_id,
    name: row.name,
    score: row.score,
    flipRate: row.flip_rate,
    failureRate: row.failure_rate,
    failureRateLow: row.failure_low,
    failureRateHigh: row.failure_high,
    retriesPassed: row.retries_passed,
    results: row.outcomes.length,
    lastFlipRunKey:
      row.last_flip_run_id === null ? null : (runKeys.get(row.last_flip_run_id) ?? null),
    context: {
      family: row.family,
      platform: orNull(row.platform),
      branch: orNull(row.branch),
      site: orNull(row.site),
      environment: orNull(row.environment),
    },
    outcomes: row.outcomes,
  };
}

/**
 * Flaky tests, highest score first (GET /v1/flaky-tests): one entry per test and job context
 * whose score reaches the threshold over at least the minimum of results.
 */
export async function flakyTests(
  db: Db,
  query: FlakyQuery,
  settings: FlakySettings,
): Promise<FlakyTest[]> {
  await untilCounted({ db, settings });
  const rows = await repo.ranked(db.pool, {
    ...query,
    threshold: settings.threshold,
    minResults: settings.minResults,
  });
  const flipRuns = rows.flatMap((row) => (row.last_flip_run_id ? [row.last_flip_run_id] : []));
  const moments = await runMoments(db, [...new Set(flipRuns)]);
  return rows.map((row) => toFlakyTest(row, new Map(moments.map((m) => [m.id, m.key]))));
}

/**
 * A test's score in each context with its evidence: the runs of its window (which flipped,
 * which passed on retry) and the triage failure groups of its failures. Both counting and triage
 * run after an upload's answer: each is waited for, or the newest run's flip would show without
 * its failure's group.
 */
export async function flakyTest(
  db: Db,
  testId: number,
  settings: FlakySettings,
  triage: TriageDeps,
): Promise<FlakyDetail> {
  await untilCounted({ db, settings });
  const rows = await repo.windowsOfTest(db.pool, testId);
  const runIds = [...new Set(rows.flatMap((row) => row.run_ids))];
  const failedIn = [
    ...new Set(rows.flatMap((row) => row.run_ids.filter((_, i) => row.outcomes[i] === "f"))),
  ];
  const [moments, groups] = await Promise.all([
    runMoments(db, runIds),
    testFailureGroups(triage, testId, failedIn),
  ]);
  const byId = new Map(moments.map((moment) => [moment.id, moment]));
  const keys = new Map(moments.map((moment) => [moment.id, moment.key]));
  const contexts = rows.map((row) => {
    const mine = new Set(row.run_ids);
    return {
      ...toFlakyTest(row, keys),
      flaky: isFlaky({ score: row.score, results: row.outcomes.length }, settings),
      runs: row.run_ids.flatMap((id, i) => {
        const moment = byId.get(id);
        if (!moment) return [];
        const outcome = row.outcomes[i] as "p" | "f" | "r";
        return [
          {
            runKey: moment.key,
            at: moment.at.toISOString(),
            outcome,
            flipped: flippedAt(row.outcomes, i),
          },
        ];
      }),
      groups: groups
        .map((group) => ({
          id: group.id,
          message: group.message,
          failures: group.runIds.filter((id) => mine.has(id)).length,
        }))
        .filter((group) => group.failures > 0),
    };
  });
  return {
    testId,
    threshold: settings.threshold,
    window: settings.window,
    minResults: settings.minResults,
    contexts,
  };
}

/** The Flaky Tests screen's trend and the '@unstable' tests to untag. */
export async function flakySummary(
  db: Db,
  settings: FlakySettings,
  now = new Date(),
): Promise<FlakySummary> {
  await untilCounted({ db, settings });
  const tags = await listTags(db);
  const unstable = tags.byTag[UNSTABLE_TAG]?.tests ?? [];
  const ids = unstable.map((test) => test.id);
  const [trend, settled, neverFailed] = await Promise.all([
    repo.trend(db.pool, new Date(now.getTime() - TREND_DAYS * DAY_MS)),
    repo.settledTests(db.pool, ids, settings.window),
    repo.neverFailedTests(db.pool, ids, settings.window),
  ]);
  const names = new Map(unstable.map((test) => [test.id, test.name]));
  return {
    threshold: settings.threshold,
    window: settings.window,
    minResults: settings.minResults,
    trend,
    stableUnstable: [...settled, ...neverFailed].map((row) => ({
      testId: row.test_id,
      name: names.get(row.test_id) ?? "",
      results: row.results,
    })),
  };
}
