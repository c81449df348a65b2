import {
  DEFAULT_TICKET_PATTERN,
  deriveStatus,
  extractTickets,
  NO_UNSTABLE,
  pendingReason,
  type ApiRequest,
  type BackendResult,
  type BackendRun,
  type FrontendResultDetail,
  type LoadRun,
  type LoadStat,
} from "@assay/core";

/** API answers of the runs read API for component tests; tests override what they look at. */

export function buildBackendRun(overrides: Partial<BackendRun> = {}): BackendRun {
  return {
    test_run_key: "api-run-1",
    test_run_name: "2026-05-01 06:00 API",
    executor: "daily-robot",
    branch: "master",
    state: "finished",
    // The tests' times summed; the run took 1m 30s on the clock.
    duration_ms: 540_000,
    started_at: "2026-05-01T06:00:00.000Z",
    finished_at: "2026-05-01T06:01:30.000Z",
    created_at: "2026-05-01T06:00:00.000Z",
    total: 0,
    passed: 0,
    failed: 0,
    pending: 0,
    flaky: 0,
    env: "stage",
    baseurl: "https://api.stage.example.com/",
    commit: "abc1234",
    is_china_region: false,
    ...overrides,
  };
}

let nextId = 1;

/** The derived fields follow the status and message as the server derives them (core's rules). */
export function buildBackendResult(overrides: Partial<BackendResult> = {}): BackendResult {
  const id = nextId++;
  const status = overrides.status ?? "passed";
  const message = overrides.error_message?.message ?? null;
  const derived = deriveStatus({ status, error_message: message, test_id: 0 }, NO_UNSTABLE);
  return {
    derived_status: derived,
    pending_reason: derived === "skipped" ? pendingReason(message) : null,
    tickets: status === "failed" ? extractTickets([message], DEFAULT_TICKET_PATTERN) : [],
    id,
    test_run_key: "api-run-1",
    test_run_test_id: `t-${id}`,
    test_id: 1000 + id,
    name: `test ${id}`,
    title: `Test ${id}`,
    scenario: null,
    status: "passed",
    passed: true,
    tags: [],
    branch: "master",
    start_time: "2026-05-01T06:00:00.000Z",
    end_time: "2026-05-01T06:00:01.000Z",
    duration_ms: 1000,
    attempt: 0,
    is_final: true,
    flaky: false,
    baseurl: "https://api.stage.example.com/",
    file: null,
    error_message: null,
    consoleLog: null,
    body: null,
    ...overrides,
  };
}

export function buildApiRequests(count: number, from = 0): ApiRequest[] {
  return Array.from({ length: count }, (_, i) => ({
    id: from + i + 1,
    method: i % 2 === 0 ? "GET" : "POST",
    url: `/v1/items/${from + i + 1}`,
    status: i % 10 === 9 ? 500 : 200,
    responsetime: 10 + (i % 50),
  }));
}

export function buildLoadRun(overrides: Partial<LoadRun> = {}): LoadRun {
  return {
    test_run_key: "load-1",
    test_run_name: "Patient login 20 users",
    executor: "qa@example.com",
    branch: "master",
    state: "finished",
    duration_ms: 300_000,
    started_at: "2026-05-01T07:00:00.000Z",
    finished_at: "2026-05-01T07:05:00.000Z",
    created_at: "2026-05-01T07:00:00.000Z",
    env: "Stage",
    host: "https://stage.example.com",
    test_file: "locustfiles/nextgen/patient_login.py",
    users: 20,
    run_time: "5m",
    spawn_rate: 0.2,
    load_region: "us-west-2",
    report_location: "/v1/objects/reports/2026/05/report.html",
    ...overrides,
  };
}

export function buildLoadStat(overrides: Partial<LoadStat> = {}): LoadStat {
  return {
    id: nextId++,
    method: "GET",
    name: "/login",
    requests: 1200,
    failures: 0,
    median_ms: 120,
    p95_ms: 340,
    p99_ms: 800,
    average_ms: 150,
    min_ms: 40,
    max_ms: 1900,
    requests_per_s: 4.25,
    failures_per_s: 0,
    aggregated: false,
    ...overrides,
  };
}

export function buildTestDetail(
  overrides: Partial<FrontendResultDetail> = {},
): FrontendResultDetail {
  return {
    id: 7,
    test_run_key: "ui-run-1",
    test_run_test_id: "login#0",
    test_id: 321,
    name: "Site user logs in",
    title: "Site user logs in",
    scenario: "Login",
    status: "passed",
    passed: true,
    tags: ["@login"],
    branch: "master",
    start_time: "2026-05-01T08:00:00.000Z",
    end_time: "2026-05-01T08:00:20.000Z",
    duration_ms: 20_000,
    attempt: 0,
    is_final: true,
    flaky: false,
    file: "features/login.feature",
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
    description: null,
    body: null,
    console_errors: null,
    request_errors: null,
    root_path: null,
    json_steps: [],
    json_before_steps: [],
    screenshots: [],
    attachments: [],
    error_screenshot: null,
    attempts: [],
    ...overrides,
  };
}
