import {
  deriveStatus,
  NO_UNSTABLE,
  TOP_FAILS_WINDOW_MONTHS,
  type FailsQuery,
  type HistoryEntry,
  type HistoryQuery,
  type HistoryStatus,
  type StatusInput,
  type TopFail,
} from "@assay/core";
import type { Db } from "../../db/pool.js";
import { notFound } from "../../errors.js";
import { aliasGroup } from "../aliases/aliases.service.js";
import * as repo from "./history.repo.js";
import { iso } from "./runs.mappers.js";
import { unstableTestIds } from "./runs.service.js";

const NOT_UNSTABLE: ReadonlySet<number> = new Set();

/** The spec's three history statuses: skipped and pending results are "other". */
export function historyStatus(row: StatusInput): HistoryStatus {
  const status = deriveStatus(row, NOT_UNSTABLE);
  return status === "skipped" ? "other" : status === "passed" ? "passed" : "failed";
}

/**
 * The screen route of a result, as the history list links to it: be=1 opens the Backend results
 * dialog (spec §2), which an API test's result is shown in.
 */
function resultUrl(runKey: string, testRunTestId: string, family: string): string {
  const route = `/test_runs/${encodeURIComponent(runKey)}/${encodeURIComponent(testRunTestId)}`;
  return family === "backend" ? `${route}?be=1` : route;
}

/**
 * A test's final results, newest first: passed, failed or other, with a link to each. The
 * NextGen screen passes isNextGen=true and its site to see only NextGen runs of that site.
 */
export async function getTestHistory(
  db: Db,
  testId: number,
  query: HistoryQuery,
): Promise<HistoryEntry[]> {
  // A renamed test's history holds its earlier names' results (issue 35): each entry keeps the
  // id it was stored under.
  const { members } = await aliasGroup(db, testId);
  const rows = await repo.listTestHistory(db, members, query);
  // One round trip for a test with results; whether it exists matters only when none come back.
  if (rows.length === 0 && !(await repo.testExists(db, testId))) {
    throw notFound(`No test with id ${testId}.`);
  }
  return rows.map((row) => {
    const startTime = iso(row.start_time);
    return {
      testId: row.test_id,
      url: resultUrl(row.test_run_key, row.test_run_test_id, row.family),
      status: historyStatus(row),
      date: startTime?.slice(0, 10) ?? null,
      passed: row.status === "passed",
      start_time: startTime,
      test_run_key: row.test_run_key,
      test_run_test_id: row.test_run_test_id,
    };
  });
}

/**
 * Top Fails: tests with the most failed final results in the last two months, most first,
 * ties by test id, each with its catalogue title.
 */
export async function getTopFails(db: Db, query: FailsQuery): Promise<TopFail[]> {
  // A failure of an '@unstable' frontend test is unstable, not failed (core's deriveStatus):
  // such tests are left out, so as many more are read as could be left out.
  const unstable = await unstableTestIds(db);
  const limit = query.limit + unstable.size;
  // The kept totals (topfails module) give the same rows without counting the window; none
  // come back while they cannot be used (not counted yet, a change being recounted).
  let rows = await repo.listTopFails(db, TOP_FAILS_WINDOW_MONTHS, limit, "kept");
  if (rows.length === 0) rows = await repo.listTopFails(db, TOP_FAILS_WINDOW_MONTHS, limit);
  return rows
    .filter(
      (row) =>
        deriveStatus(
          { status: "failed", test_id: row.id },
          row.family === "frontend" ? unstable : NO_UNSTABLE,
        ) === "failed",
    )
    .slice(0, query.limit)
    .map(({ id, title, suite_path, file, fail_count }) => ({
      id,
      title,
      suite_path,
      file,
      fail_count,
    }));
}
