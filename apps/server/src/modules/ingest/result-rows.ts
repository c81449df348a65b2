import { createHash } from "node:crypto";
import type { ResultInput } from "@assay/core";
import { json, type CopyValue } from "./copy.js";

/** Columns of `results` written by COPY, in the order resultRow() gives the values. */
export const RESULT_COLUMNS = [
  "id",
  "run_id",
  "test_run_test_id",
  "test_id",
  "attempt",
  "status",
  "failure_type",
  "name",
  "suite_path",
  "title",
  "scenario",
  "description",
  "file",
  "root_path",
  "body",
  "error_message",
  "error_name",
  "error_stack",
  "console_log",
  "console_errors",
  "request_errors",
  "tags",
  "start_time",
  "end_time",
  "duration_ms",
  "nora_site",
  "version",
  "commit_hash",
  "chrome_version",
  "platform",
  "executor",
  "branch",
  "baseurl",
  "properties",
  "json_steps",
  "json_before_steps",
] as const;

/**
 * The run-wide id of a result without an explicit one: the test's identity plus its attempt,
 * so the same report uploaded again yields the same ids (and is recognised as a duplicate).
 */
export function derivedTestRunTestId(identity: string, attempt: number): string {
  const hash = createHash("sha256").update(identity).digest("base64url").slice(0, 16);
  return attempt > 0 ? `${hash}-r${attempt}` : hash;
}

function stepsOf(result: ResultInput, before: boolean) {
  return (result.steps ?? [])
    .filter((step) => (step.before ?? false) === before)
    .map((step) => ({
      action: step.action,
      passed: step.passed,
      ...(step.location !== undefined && { location: step.location }),
      ...(step.duration_ms !== undefined && { duration_ms: step.duration_ms }),
    }));
}

export function resultRow(
  result: ResultInput,
  ids: { id: number; runId: number; testRunTestId: string; testId: number },
): CopyValue[] {
  return [
    ids.id,
    ids.runId,
    ids.testRunTestId,
    ids.testId,
    result.attempt ?? 0,
    result.status,
    result.failure_type,
    result.name,
    result.suite_path ?? [],
    result.title,
    result.scenario,
    result.description,
    result.file,
    result.root_path,
    result.body,
    result.error_message,
    result.error_name,
    result.error_stack,
    result.console_log,
    result.console_errors,
    result.request_errors,
    result.tags ?? [],
    result.start_time,
    result.end_time,
    result.duration_ms ?? 0,
    result.nora_site,
    result.version,
    result.commit_hash,
    result.chrome_version,
    result.platform,
    result.executor,
    result.branch,
    result.baseurl,
    json(result.properties),
    json(stepsOf(result, false)),
    json(stepsOf(result, true)),
  ];
}
