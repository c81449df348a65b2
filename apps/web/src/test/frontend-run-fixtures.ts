import type { FrontendResult, FrontendRun, FrontendRunDetail, RunHistoryEntry } from "@assay/core";

/** API answers about frontend runs for component tests; tests override what they look at. */

export function buildFrontendRun(overrides: Partial<FrontendRun> = {}): FrontendRun {
  return {
    test_run_key: "ui-run-1",
    test_run_name: "2026-05-01 08:00 NextGen dev1",
    executor: "daily-robot",
    branch: "master",
    state: "finished",
    // The tests' times summed (8h 39m 36s): parallel runners make it more than the 1h 2m 3s
    // from started_at to finished_at.
    duration_ms: 31_176_000,
    started_at: "2026-05-01T08:00:00.000Z",
    finished_at: "2026-05-01T09:02:03.000Z",
    created_at: "2026-05-01T08:00:00.000Z",
    total: 0,
    passed: 0,
    failed: 0,
    pending: 0,
    skipped: 0,
    unstable: 0,
    flaky: 0,
    nora_site: "dev1.nextgen.example.com",
    commit: "abc1234",
    is_next_gen: true,
    is_china_region: false,
    ...overrides,
  };
}

let nextId = 1;

export function buildFrontendResult(overrides: Partial<FrontendResult> = {}): FrontendResult {
  const id = nextId++;
  return {
    id,
    test_run_key: "ui-run-1",
    test_run_test_id: `t-${id}`,
    test_id: 100 + id,
    name: `test ${id}`,
    title: `Test ${id}`,
    scenario: null,
    status: "passed",
    passed: true,
    tags: [],
    branch: "master",
    start_time: "2026-05-01T08:00:00.000Z",
    end_time: "2026-05-01T08:00:01.000Z",
    duration_ms: 1000,
    attempt: 0,
    is_final: true,
    flaky: false,
    file: null,
    derived_status: "passed",
    pending_reason: null,
    tickets: [],
    error_message: null,
    nora_site: "dev1.nextgen.example.com",
    version: "5.2.0",
    chrome_version: "126",
    platform: "linux",
    commit_hash: "def5678",
    executor: "daily-robot",
    screenshot: null,
    ...overrides,
  };
}

/** A failed result: raw status failed, shown as `derived` (failed, unstable or skipped). */
export function buildFailedResult(
  overrides: Partial<FrontendResult> = {},
  derived: FrontendResult["derived_status"] = "failed",
): FrontendResult {
  return buildFrontendResult({
    status: "failed",
    passed: false,
    derived_status: derived,
    error_message: "expected true to be false",
    ...overrides,
  });
}

/** A run with these results and counts that agree with them. */
export function buildRunDetail(
  results: FrontendResult[],
  overrides: Partial<FrontendRun> = {},
): FrontendRunDetail {
  const finals = results.filter((r) => r.is_final);
  const count = (status: FrontendResult["derived_status"]) =>
    finals.filter((r) => r.derived_status === status).length;
  return {
    run: buildFrontendRun({
      total: finals.length,
      passed: count("passed"),
      failed: count("failed"),
      skipped: count("skipped"),
      pending: count("skipped"),
      unstable: count("unstable"),
      ...overrides,
    }),
    warnings: [],
    results,
  };
}

/** One page of any run list. */
export function buildRunPage<T>(items: T[], total = items.length) {
  return { items, total, page: 1, page_size: 15 };
}

/** History entries, newest first, for `runKeys` with these statuses. */
export function buildHistory(
  entries: [runKey: string, status: RunHistoryEntry["status"]][],
): RunHistoryEntry[] {
  return entries.map(([runKey, status], index) => ({
    status,
    date: `2026-04-${String(30 - index).padStart(2, "0")}`,
    test_run_key: runKey,
    test_run_test_id: `t-${runKey}`,
  }));
}
