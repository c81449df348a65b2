import type { RunHistory, RunHistoryEntry, RunHistoryQuery, StatusInput } from "@assay/core";
import type { Db } from "../../db/pool.js";
import { aliasGroups } from "../aliases/aliases.service.js";
import { historyStatus } from "./history.service.js";
import * as repo from "./run-history.repo.js";
import { iso } from "./runs.mappers.js";
import { requireRun } from "./runs.service.js";

export interface EntryRow extends StatusInput {
  test_run_test_id: string;
  start_time: Date | null;
}

function toEntry(row: EntryRow, runKey: string): RunHistoryEntry {
  return {
    status: historyStatus(row),
    date: iso(row.start_time)?.slice(0, 10) ?? null,
    test_run_key: runKey,
    test_run_test_id: row.test_run_test_id,
  };
}

const newestFirst = (a: EntryRow, b: EntryRow) =>
  (b.start_time?.getTime() ?? 0) - (a.start_time?.getTime() ?? 0);

/** Each test's anchor: its latest result in the run (the run's start for an undated one). */
function anchorsOf(own: readonly EntryRow[], fallback: Date): repo.HistoryAnchor[] {
  const latest = new Map<number, Date>();
  for (const row of own) {
    const time = row.start_time ?? fallback;
    const known = latest.get(row.test_id);
    if (!known || time > known) latest.set(row.test_id, time);
  }
  return [...latest].map(([testId, anchor]) => ({ testId, anchor }));
}

/**
 * A renamed test's history reads every test of its alias group (docs/aliases.md), each from
 * the same anchor: the results stored under its earlier names count as its own.
 */
async function withAliases(db: Db, anchors: repo.HistoryAnchor[]): Promise<repo.HistoryAnchor[]> {
  const groups = await aliasGroups(
    db,
    anchors.map((a) => a.testId),
  );
  if (groups.size === 0) return anchors;
  return anchors.flatMap((a) =>
    (groups.get(a.testId) ?? [a.testId]).map((readId) => ({ ...a, readId })),
  );
}

/**
 * The recent history of every test of a frontend run, keyed by stable test id: the test's result
 * in this run first, then its final results in runs that started no later, newest first, at
 * most `limit` entries. Judged from the run itself, an old run's 'New Failure' stays what it was.
 * A result without a start time is placed at its run's start in its own run's list, and left
 * out of other runs' lists, where it cannot be placed in time.
 */
export async function getRunHistory(
  db: Db,
  key: string,
  query: RunHistoryQuery,
): Promise<RunHistory> {
  const run = await requireRun(db, "frontend", key);
  const own = await repo.listRunFinalResults(db, run.id);
  return historyOf(
    db,
    { id: run.id, key, start: run.started_at ?? run.created_at },
    own,
    query.limit,
  );
}

/**
 * The recent history of the tests of `own` (final results of the run, every one of each test
 * given), as getRunHistory answers it: the run view asks it for one page's tests at a time.
 */
export async function historyOf(
  db: Db,
  run: { id: number; key: string; start: Date },
  own: readonly EntryRow[],
  limit: number,
): Promise<RunHistory> {
  const anchors = await withAliases(db, anchorsOf(own, run.start));
  const earlier = await repo.listEarlierHistory(db, run.id, anchors, limit);
  const history: RunHistory = {};
  for (const row of [...own].sort(newestFirst)) {
    (history[row.test_id] ??= []).push(toEntry(row, run.key));
  }
  for (const row of earlier) {
    const entries = history[row.test_id];
    if (entries && entries.length < limit) entries.push(toEntry(row, row.test_run_key));
  }
  for (const entries of Object.values(history)) entries.splice(limit);
  return history;
}
