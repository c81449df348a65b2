import { flakyFigures, isSettled, nextWindow, type Outcome } from "@assay/core";
import type { FastifyBaseLogger } from "fastify";
import type pg from "pg";
import type { FlakySettings } from "../../config-flaky.js";
import { withTransaction, type Db } from "../../db/pool.js";
import {
  forgetPending,
  markPending,
  readOrMarked,
  untilAllDone,
  type PendingStep,
} from "../pending/pending.service.js";
import { recordUnreadRuns } from "../runs/backfill.service.js";
import {
  earlierOutcomes,
  runOutcomesFor,
  type ContextOutcomes,
  type EarlierOutcome,
} from "../runs/failures.service.js";
import * as repo from "./stats.repo.js";

/** The figures a window is stored with. */
export function statsRow(
  testId: number,
  window: { outcomes: string; runIds: number[] },
  settings: FlakySettings,
): repo.StatsRow {
  const figures = flakyFigures(window.outcomes, settings.decay);
  return {
    testId,
    outcomes: window.outcomes,
    runIds: window.runIds,
    score: figures.weightedFlipRate,
    flipRate: figures.flipRate,
    failureRate: figures.failureRate,
    failureLow: figures.failureRateLow,
    failureHigh: figures.failureRateHigh,
    retriesPassed: figures.retriesPassed,
    lastFlipRunId: window.runIds[figures.lastFlip] ?? null,
    settled: isSettled(window.outcomes, settings.window),
  };
}

const sameContext = (key: repo.ContextKey, earlier: EarlierOutcome) =>
  earlier.platform === key.platform &&
  earlier.branch === key.branch &&
  earlier.site === key.site &&
  earlier.environment === key.environment;

/**
 * Where the windows of tests that first fail in a context start: their earlier results there,
 * oldest first (read by test id; a test seen in many contexts may show fewer than N here).
 */
async function seeds(
  client: pg.ClientBase,
  key: repo.ContextKey,
  testIds: number[],
  runId: number,
  size: number,
): Promise<Map<number, { outcomes: string; runIds: number[] }>> {
  const earlier = await earlierOutcomes(client, testIds, runId, size * 2);
  const byTest = new Map<number, EarlierOutcome[]>();
  for (const row of earlier) {
    if (!sameContext(key, row)) continue;
    const list = byTest.get(row.test_id) ?? [];
    list.push(row);
    byTest.set(row.test_id, list);
  }
  const windows = new Map<number, { outcomes: string; runIds: number[] }>();
  for (const [testId, rows] of byTest) {
    const kept = rows.sort((a, b) => a.run_id - b.run_id).slice(-(size - 1));
    windows.set(testId, {
      outcomes: kept.map((row) => row.outcome).join(""),
      runIds: kept.map((row) => row.run_id),
    });
  }
  return windows;
}

/**
 * Moves the windows of a run's tests (issue 35). Called after the commit that stored the run
 * (flakyStep), and by the backfill. Only tests with a row or with a failure or a retry
 * now are read and written: a test that keeps passing costs nothing, so the cost follows the
 * failures, not the size of the run. `written`: the run's outcomes as its upload wrote them,
 * when it wrote all of them (ingest's result-outcomes.ts); without them the run is read.
 */
export async function recordRunOutcomes(
  client: pg.ClientBase,
  runId: number,
  settings: FlakySettings,
  written?: readonly ContextOutcomes[],
): Promise<void> {
  await repo.holdWindows(client);
  const found = await runOutcomesFor(client, runId, written);
  if (!found || found.run.family === "load") return;
  const { run } = found;
  for (const context of found.contexts.map(oneOutcomeEach)) {
    const key: repo.ContextKey = {
      family: run.family,
      platform: context.platform,
      branch: context.branch ?? run.branch ?? "",
      site: context.site ?? run.site ?? "",
      environment: run.environment,
    };
    const failed = context.test_ids.filter((_, i) => context.outcomes[i] !== "p");
    const stored = new Map((await repo.windowsOf(client, key, failed)).map((w) => [w.test_id, w]));
    const fresh = failed.filter((testId) => !stored.has(testId));
    // A test the upload itself created has nothing before this run: no probe of its history.
    const created = await repo.createdNow(client, fresh);
    const probed = fresh.filter((testId) => !created.has(testId));
    const seeded = await seeds(client, key, probed, runId, settings.window);
    const rows: repo.StatsRow[] = [];
    context.test_ids.forEach((testId, i) => {
      const outcome = context.outcomes[i] as Outcome;
      const row = stored.get(testId);
      if (!row && outcome === "p") return;
      const before = row
        ? { outcomes: row.outcomes, runIds: row.run_ids }
        : (seeded.get(testId) ?? { outcomes: "", runIds: [] });
      // A settled window (not read unless the test failed now) stays as it is while it passes.
      if (row && outcome === "p" && isSettled(row.outcomes, settings.window)) return;
      const after = nextWindow(before, outcome, runId, settings.window);
      if (row && after.outcomes === row.outcomes && after.runIds.length === row.run_ids.length) {
        if (after.runIds.every((id, at) => id === row.run_ids[at])) return;
      }
      rows.push(statsRow(testId, after, settings));
    });
    await repo.upsertStats(client, key, rows);
  }
  await repo.markRunCounted(client, runId);
  await repo.recordTrend(client, run.at, run.family, settings);
}

/** What counting a run needs. */
export interface CountDeps {
  db: Db;
  settings: FlakySettings;
  log?: FastifyBaseLogger;
}

/**
 * Counting a run as its step after the commit that stored it (modules/pending): off the upload's
 * answer (130-250 ms of a 100k known-tests upload, docs/performance.md). The upload hands over
 * the outcomes it wrote when it wrote all of the run; otherwise the run is read.
 */
export function flakyStep(deps: CountDeps): PendingStep<readonly ContextOutcomes[] | undefined> {
  return {
    kind: "flaky",
    db: deps.db,
    log: deps.log,
    work: (client, runId, written) => recordRunOutcomes(client, runId, deps.settings, written),
  };
}

/** In the upload's transaction: the run waits to be counted. Answers the upload's mark. */
export function markForFlaky(client: pg.ClientBase, runId: number): Promise<number> {
  return markPending(client, "flaky", runId);
}

/** Before reading windows: every marked run counted, so an acknowledged upload is in them. */
export function untilCounted(deps: CountDeps): Promise<void> {
  return untilAllDone(flakyStep(deps));
}

/** How bad an outcome is: a run's worst outcome of a test is its outcome. */
const WORST: Record<Outcome, number> = { p: 0, r: 1, f: 2 };

/**
 * A context's tests with one outcome each. A run can hold two final results of one test (two
 * entries of a report with the same explicit id, TC901): the run counts once in the test's
 * window, with the worse of them (writing the test's window twice in one statement failed).
 */
function oneOutcomeEach(context: ContextOutcomes): ContextOutcomes {
  const outcomes = new Map<number, Outcome>();
  context.test_ids.forEach((testId, i) => {
    const outcome = context.outcomes[i] as Outcome;
    const earlier = outcomes.get(testId);
    if (earlier === undefined || WORST[outcome] > WORST[earlier]) outcomes.set(testId, outcome);
  });
  if (outcomes.size === context.test_ids.length) return context;
  return { ...context, test_ids: [...outcomes.keys()], outcomes: [...outcomes.values()].join("") };
}

/**
 * Counts every stored run flaky has not counted yet (runs stored before flaky existed), in id
 * order (the order ingest stores them), each run in its own transaction. Returns how many.
 */
export async function backfillRuns(
  db: Db,
  settings: FlakySettings,
  log?: FastifyBaseLogger,
): Promise<number> {
  const done = await recordUnreadRuns(db, {
    done: readOrMarked("flaky", repo.countedRunIds),
    record: (client, runId) => recordRunOutcomes(client, runId, settings),
  });
  if (done > 0) log?.info({ runs: done }, "flaky: stored runs counted");
  return done;
}

/** Everything derived again from the stored runs (the demo, after dating its runs). */
export async function recount(db: Db, settings: FlakySettings): Promise<number> {
  await withTransaction(db, async (client) => {
    // The marks first, as a step takes its run's mark before writing: a step at work is waited
    // for here, before the tables are truncated. The other order deadlocked with it (the demo's
    // last uploads' steps, seen in a demo load that then never finished).
    await forgetPending(client, "flaky");
    await repo.forgetAll(client);
  });
  return backfillRuns(db, settings);
}
