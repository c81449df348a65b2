import {
  deriveStatus,
  withUnstable,
  extractTickets,
  NO_UNSTABLE,
  pendingReason,
  type ApiRequest,
  type BackendResult,
  type BackendRun,
  type FrontendResult,
  type FrontendRun,
  type LoadRun,
  type LoadStat,
  type ResultAttachment,
  type Screenshot,
  type Step,
} from "@assay/core";
import type { StepRow } from "../../db/schema.js";
import type {
  ApiRequestRow,
  AttachmentRow,
  BackendResultRow,
  FrontendResultRow,
} from "./results.repo.js";
import type { LoadStatRow, RunRow } from "./runs.repo.js";

/**
 * Rows to API objects: timestamps as ISO strings, derived statuses from @assay/core's rules.
 * The response schemas then drop anything they do not name, except on the run details, which
 * are sent as these mappers build them (runs.routes.ts): there, keys must be exactly the
 * schema's, in its order (run-details.test.ts checks it).
 */

export const iso = (value: Date | null): string | null => (value ? value.toISOString() : null);

/** The run detail reads its timestamps as ISO text already (runs.repo.ts, isoText). */
const isoOf = (value: Date | string | null): string | null =>
  typeof value === "string" ? value : iso(value);

function runCommon(row: RunRow) {
  return {
    test_run_key: row.test_run_key,
    test_run_name: row.test_run_name,
    executor: row.executor,
    branch: row.branch,
    state: row.state,
    duration_ms: row.duration_ms,
    started_at: iso(row.started_at),
    finished_at: iso(row.finished_at),
    created_at: row.created_at.toISOString(),
  };
}

function runCounts(row: RunRow) {
  return {
    total: row.total,
    passed: row.passed,
    failed: row.failed,
    pending: row.pending,
    flaky: row.flaky,
  };
}

/** `unstable` is counted out of the stored failed count, as the spec's status rules say. */
export function toFrontendRun(row: RunRow, unstable: number): FrontendRun {
  const counts = withUnstable(runCounts(row), unstable);
  // Keys in the schema's order (skipped, then unstable): run details are sent as built, and
  // run-details.test.ts holds them to what zod's serializer writes.
  return {
    ...runCommon(row),
    ...runCounts(row),
    failed: counts.failed,
    skipped: row.pending,
    unstable: counts.unstable,
    nora_site: row.nora_site,
    commit: row.commit,
    is_next_gen: row.is_next_gen,
    is_china_region: row.is_china_region,
  };
}

export function toBackendRun(row: RunRow): BackendRun {
  return {
    ...runCommon(row),
    ...runCounts(row),
    env: row.env,
    baseurl: row.baseurl,
    commit: row.commit,
    is_china_region: row.is_china_region,
  };
}

export function toLoadRun(row: RunRow): LoadRun {
  return {
    ...runCommon(row),
    env: row.env,
    host: row.host,
    test_file: row.test_file,
    users: row.users,
    run_time: row.run_time,
    spawn_rate: row.spawn_rate,
    load_region: row.load_region,
    report_location: row.report_location,
  };
}

export interface StatusRules {
  unstableTestIds: ReadonlySet<number>;
  /** The catalogue's ticketPattern. */
  ticketPattern: string;
}

export function toFrontendResult(
  row: Omit<FrontendResultRow, "screenshot" | "start_time" | "end_time"> & {
    start_time: Date | string | null;
    end_time: Date | string | null;
  },
  runKey: string,
  rules: StatusRules,
  screenshot: string | null,
): FrontendResult {
  const { derived_status, pending_reason, tickets } = derivedFields(row, rules);
  // One flat literal: spreading a shared part and adding fields makes V8 build slow
  // dictionary-mode objects, which cost ~20x more over a 13,700-result run. Its keys are in
  // FrontendResultSchema's order: the run detail is sent as it is, without zod rebuilding it.
  return {
    id: row.id,
    test_run_key: runKey,
    test_run_test_id: row.test_run_test_id,
    test_id: row.test_id,
    name: row.name,
    title: row.title,
    scenario: row.scenario,
    status: row.status,
    passed: row.status === "passed",
    tags: row.tags,
    branch: row.branch,
    start_time: isoOf(row.start_time),
    end_time: isoOf(row.end_time),
    duration_ms: row.duration_ms,
    attempt: row.attempt,
    is_final: row.is_final,
    flaky: row.flaky,
    file: row.file,
    derived_status,
    pending_reason,
    tickets,
    error_message: row.error_message,
    nora_site: row.nora_site,
    version: row.version,
    chrome_version: row.chrome_version,
    platform: row.platform,
    commit_hash: row.commit_hash,
    executor: row.executor,
    screenshot,
  };
}

export function toStep(step: StepRow): Step {
  return {
    action: step.action,
    passed: step.passed ?? null,
    codeLocation: step.location ?? null,
    duration_ms: step.duration_ms ?? null,
  };
}

/**
 * Images are a result's screenshots; every other attachment is listed beside them. The same test
 * as the lists' last screenshot (runs.repo.ts screenshotsBetween's LIKE 'image/%').
 */
export const isImage = (row: AttachmentRow): boolean => row.content_type.startsWith("image/");

export function toScreenshot(row: AttachmentRow): Screenshot {
  return {
    id: row.id,
    description: row.description,
    screenshotpath: row.object_key,
    timestamp: iso(row.taken_at),
    step_index: row.step_index,
    content_type: row.content_type,
  };
}

export function toResultAttachment(row: AttachmentRow): ResultAttachment {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    path: row.object_key,
    contentType: row.content_type,
    size: Number(row.size),
    stepIndex: row.step_index,
  };
}

/**
 * What deriveStatus and extractTickets make of a result, the same for every family: its shown
 * status, a pending result's reason, and the tickets of a failure's message.
 */
export function derivedFields(
  row: { status: BackendResultRow["status"]; error_message: string | null; test_id: number },
  rules: StatusRules,
) {
  const derived = deriveStatus(row, rules.unstableTestIds);
  return {
    derived_status: derived,
    pending_reason: derived === "skipped" ? pendingReason(row.error_message) : null,
    // The spec takes tickets from failure messages only.
    tickets:
      row.status === "failed" ? extractTickets([row.error_message], rules.ticketPattern) : [],
  };
}

/** `ticketPattern` is the catalogue's; backend failures are never unstable (NO_UNSTABLE). */
export function toBackendResult(
  row: BackendResultRow,
  runKey: string,
  ticketPattern: string,
): BackendResult {
  const hasError =
    row.error_name !== null || row.error_message !== null || row.error_stack !== null;
  const { derived_status, pending_reason, tickets } = derivedFields(row, {
    unstableTestIds: NO_UNSTABLE,
    ticketPattern,
  });
  // Keys in BackendResultSchema's order: the run detail is sent without zod rebuilding it.
  return {
    id: row.id,
    test_run_key: runKey,
    test_run_test_id: row.test_run_test_id,
    test_id: row.test_id,
    name: row.name,
    title: row.title,
    scenario: row.scenario,
    status: row.status,
    passed: row.status === "passed",
    tags: row.tags,
    branch: row.branch,
    start_time: iso(row.start_time),
    end_time: iso(row.end_time),
    duration_ms: row.duration_ms,
    attempt: row.attempt,
    is_final: row.is_final,
    flaky: row.flaky,
    baseurl: row.baseurl,
    file: row.file,
    derived_status,
    pending_reason,
    tickets,
    error_message: hasError
      ? { name: row.error_name, message: row.error_message, stack: row.error_stack }
      : null,
    consoleLog: row.console_log,
    body: row.body,
  };
}

export function toApiRequest(row: ApiRequestRow): ApiRequest {
  return {
    id: row.id,
    method: row.method,
    url: row.url,
    status: row.status,
    responsetime: row.response_time_ms,
  };
}

export const toLoadStat = (row: LoadStatRow): LoadStat => ({ ...row });
