import type { DiffRun, DiffTest, PreviousRun, RunDiff, SlowerTest } from "@assay/core";
import type { DiffSettings } from "../../config-diff.js";
import type { Db } from "../../db/pool.js";
import { AppError, notFound } from "../../errors.js";
import * as repo from "./diff.repo.js";

/** A test's outcome in one run: its final results folded into one. */
interface Outcome {
  testId: number;
  testRunTestId: string;
  name: string;
  status: "passed" | "failed" | "skipped";
  flaky: boolean;
  durationMs: number;
}

const FAMILY_WORDS: Record<DiffRunRow["family"], string> = {
  frontend: "a frontend (UI) run",
  backend: "an API (backend) run",
  load: "a load run",
};
type DiffRunRow = repo.DiffRunRow;

/** Failed wins over passed, passed over skipped: a test failing in any of its results fails. */
const RANK = { failed: 2, passed: 1, skipped: 0 } as const;

/**
 * Each test of a run once. A test the run holds more than once (examples of one outline under one
 * id) fails if any of its results fails, is flaky if any is, and took their summed time.
 */
function outcomesOf(rows: readonly repo.OutcomeRow[]): Map<number, Outcome> {
  const byTest = new Map<number, Outcome>();
  for (const [testId, testRunTestId, name, status, flaky, durationMs] of rows) {
    const known = byTest.get(testId);
    if (!known) {
      byTest.set(testId, { testId, testRunTestId, name, status, flaky, durationMs });
      continue;
    }
    if (RANK[status] > RANK[known.status]) {
      known.status = status;
      known.testRunTestId = testRunTestId;
    }
    known.flaky ||= flaky;
    known.durationMs += durationMs;
  }
  return byTest;
}

const entry = (o: Outcome): DiffTest => ({
  testId: o.testId,
  name: o.name,
  testRunTestId: o.testRunTestId,
});

const byName = (x: DiffTest, y: DiffTest) => x.name.localeCompare(y.name) || x.testId - y.testId;

/** True when `b` took more than both `percent` percent and `ms` milliseconds longer than `a`. */
export function isSlower(a: number, b: number, settings: DiffSettings): boolean {
  return b - a > settings.slowerMs && b > a * (1 + settings.slowerPercent / 100);
}

/**
 * The comparison itself, from each run's outcomes: pure, so that its rules are tested without a
 * database and the 14,000-result bench measures the reads and this alone.
 */
export function compareOutcomes(
  before: ReadonlyMap<number, Outcome>,
  after: ReadonlyMap<number, Outcome>,
  settings: DiffSettings,
): Omit<RunDiff, "a" | "b" | "slowerThan"> {
  const diff = {
    newFailures: [] as DiffTest[],
    fixed: [] as DiffTest[],
    stillFailing: [] as DiffTest[],
    newlyFlaky: [] as DiffTest[],
    slower: [] as SlowerTest[],
    added: [] as DiffTest[],
    removed: [] as DiffTest[],
  };
  for (const b of after.values()) {
    const a = before.get(b.testId);
    if (!a) diff.added.push(entry(b));
    if (b.status === "failed") {
      (a?.status === "failed" ? diff.stillFailing : diff.newFailures).push(entry(b));
    } else if (b.status === "passed" && a?.status === "failed") diff.fixed.push(entry(b));
    if (b.flaky && !a?.flaky) diff.newlyFlaky.push(entry(b));
    if (
      a &&
      a.status === "passed" &&
      b.status === "passed" &&
      isSlower(a.durationMs, b.durationMs, settings)
    ) {
      diff.slower.push({ ...entry(b), durationA: a.durationMs, durationB: b.durationMs });
    }
  }
  for (const a of before.values()) if (!after.has(a.testId)) diff.removed.push(entry(a));
  for (const list of [diff.newFailures, diff.fixed, diff.stillFailing, diff.newlyFlaky])
    list.sort(byName);
  diff.added.sort(byName);
  diff.removed.sort(byName);
  diff.slower.sort((x, y) => y.durationB - y.durationA - (x.durationB - x.durationA));
  return diff;
}

function toDiffRun(row: DiffRunRow): DiffRun {
  return {
    key: row.key,
    name: row.name,
    family: row.family,
    createdAt: row.created_at.toISOString(),
    total: row.total,
  };
}

async function requireRun(db: Db, key: string): Promise<DiffRunRow> {
  const run = await repo.findRunByKey(db, key);
  if (!run) throw notFound(`No run with key ${key}: check the key in the run list.`);
  return run;
}

const cannotCompare = (message: string) => new AppError(400, "cannot_compare", message);

/**
 * What changed from run `aKey` to run `bKey`: new failures, fixed, still failing, newly flaky,
 * slower, added and removed tests. Two runs of different families, a run with itself and load
 * runs (endpoints, not tests: their trend compares them) are refused in words.
 */
export async function diffRuns(
  db: Db,
  settings: DiffSettings,
  aKey: string,
  bKey: string,
): Promise<RunDiff> {
  if (aKey === bKey) {
    throw cannotCompare(`Both keys are ${aKey}: a diff compares two different runs.`);
  }
  const [a, b] = await Promise.all([requireRun(db, aKey), requireRun(db, bKey)]);
  if (a.family !== b.family) {
    throw cannotCompare(
      `Run ${aKey} is ${FAMILY_WORDS[a.family]} and run ${bKey} is ${FAMILY_WORDS[b.family]}: ` +
        "a diff compares two runs of one family. Pick two runs from the same list.",
    );
  }
  if (a.family === "load") {
    throw cannotCompare(
      "Load runs have endpoints, not tests: compare them in the load trend " +
        `(GET /v1/load-test-runs/${bKey}/trends, or 'Trend' in the load run's dialog).`,
    );
  }
  const [before, after] = await Promise.all([
    repo.finalOutcomes(db, a.id),
    repo.finalOutcomes(db, b.id),
  ]);
  return {
    a: toDiffRun(a),
    b: toDiffRun(b),
    slowerThan: { percent: settings.slowerPercent, ms: settings.slowerMs },
    ...compareOutcomes(outcomesOf(before), outcomesOf(after), settings),
  };
}

/** The latest earlier run of `key`'s job (family, executor, branch, site, environment, platform). */
export async function previousRun(db: Db, key: string): Promise<PreviousRun> {
  const run = await requireRun(db, key);
  const previous = await repo.previousRunOfJob(db, run);
  return { previous: previous ? toDiffRun(previous) : null };
}
