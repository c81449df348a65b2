import { FAILURE_FILTERS, matchesFailureFilter, type FailureFilter } from "@assay/core";
import type { Db } from "../../../db/pool.js";
import { historyStatus } from "../history.service.js";
import { historyOf, type EntryRow } from "../run-history.service.js";
import type { FailureTests, KeptView } from "./view-cache.js";

/**
 * The tests the 'Filter Failure List' options keep (spec section 4), for a kept run view.
 *
 * Both rules start with the test's newest entry, which is its own result in this run: a test
 * whose newest result here did not fail (passed, skipped, pending) matches neither, whatever its
 * past. So only the run's failing tests need their earlier history read: about one test in ten
 * of a nightly suite, instead of a probe of every test of the run (100,000 probes for a 100k
 * run). Both filters' tests are worked out from that one read and kept with the view.
 */

/** How long the filters' tests stand: later uploads of earlier runs change histories. */
export const FAILURE_TESTS_TTL_MS = 60_000;
/** The rules read the latest three entries of a test's history. */
const FAILURE_HISTORY_LIMIT = 3;

/**
 * The run's final results whose test's newest own entry failed (every own result of such a
 * test, for its history's first entries). Newest as the history orders it: latest start time
 * (the run's start for an undated result), the first in report order among equal times.
 */
export function failingTestsResults(own: readonly EntryRow[], runStart: Date): EntryRow[] {
  const newest = new Map<number, { time: number; row: EntryRow }>();
  for (const row of own) {
    const time = (row.start_time ?? runStart).getTime();
    const known = newest.get(row.test_id);
    if (!known || time > known.time) newest.set(row.test_id, { time, row });
  }
  const failing = new Set<number>();
  for (const [testId, { row }] of newest) {
    if (historyStatus(row) === "failed") failing.add(testId);
  }
  return own.filter((row) => failing.has(row.test_id));
}

async function workOut(
  db: Db,
  run: { id: number; key: string; start: Date },
  own: readonly EntryRow[],
): Promise<FailureTests> {
  const failing = failingTestsResults(own, run.start);
  const history = await historyOf(db, run, failing, FAILURE_HISTORY_LIMIT);
  const tests = Object.fromEntries(
    FAILURE_FILTERS.map(({ value }) => [value, new Set<number>()]),
  ) as Record<FailureFilter, Set<number>>;
  for (const [testId, entries] of Object.entries(history)) {
    for (const { value } of FAILURE_FILTERS) {
      if (matchesFailureFilter(value, entries)) tests[value].add(Number(testId));
    }
  }
  return tests;
}

/**
 * The tests `filter` keeps in the view's run: worked out on the first ask (requests that come
 * meanwhile wait for the same read) and kept with the view for FAILURE_TESTS_TTL_MS.
 */
export async function failureTestsOf(
  db: Db,
  view: KeptView,
  run: { id: number; key: string; start: Date },
  own: () => readonly EntryRow[],
  filter: FailureFilter,
): Promise<ReadonlySet<number>> {
  let known = view.failures;
  if (!known || Date.now() - known.at >= FAILURE_TESTS_TTL_MS) {
    const tests = workOut(db, run, own());
    known = { at: Date.now(), tests };
    view.failures = known;
    // A failed read is not kept: the next request tries again.
    tests.catch(() => {
      if (view.failures === known) view.failures = undefined;
    });
  }
  return (await known.tests)[filter];
}
