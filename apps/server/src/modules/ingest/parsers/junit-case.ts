import type { AttachmentInput, ResultInput } from "@assay/core";
import {
  errorFields,
  readOutput,
  secondsToMs,
  timestampToIso,
  type Outcome,
  type Property,
} from "./junit-fields.js";
import { propertyAttachments, propertySteps } from "./junit-properties.js";

/*
 * One <testcase> as collected from the XML, and the attempts it stands for. Maven Surefire
 * (rerunFailingTestsCount) writes a test's reruns inside its testcase: <flakyFailure>/<flakyError>
 * are failed runs before the final, passing one (the testcase itself); <failure>/<error> is the
 * FIRST failing run and each <rerunFailure>/<rerunError> a later one, the last of them final.
 * The testcase's time and output belong to the run it describes (Surefire's rerun-failing-tests
 * documentation); the rerun elements carry no time.
 */

export type RerunKind = "flakyFailure" | "flakyError" | "rerunFailure" | "rerunError";

export const RERUN_KINDS: ReadonlySet<string> = new Set<RerunKind>([
  "flakyFailure",
  "flakyError",
  "rerunFailure",
  "rerunError",
]);

/** A rerun element; its trace is a <stackTrace> child (Surefire 3 XSD) or its own text (docs). */
export interface Rerun {
  kind: RerunKind;
  message?: string;
  type?: string;
  text: string;
  stackTrace: string;
  out: string;
  err: string;
}

export interface CaseRecord {
  name: string;
  classname?: string;
  file?: string;
  time?: string;
  timestamp?: string;
  properties: Property[];
  out: string;
  err: string;
  outcomes: Outcome[];
  skipped?: { message?: string; text: string };
  reruns: Rerun[];
}

/** What the enclosing suites say about a testcase. */
export interface CaseContext {
  suitePath: string[];
  file?: string;
  start?: string;
  /** Attempt number of the testcase's first attempt (an earlier testcase may share its name). */
  firstAttempt: number;
}

type Common = Omit<ResultInput, "status">;

/** The attempts of a testcase, oldest first, and the testcase-level properties. */
export interface CaseResults {
  attempts: ResultInput[];
  properties: Property[];
}

/** Adds an attempt's output; its `[[PROPERTY|...]]` lines are appended to `properties`. */
function withOutput(
  attempt: ResultInput,
  out: string,
  err: string,
  properties: Property[],
): ResultInput {
  const stdout = readOutput(out);
  const stderr = readOutput(err);
  properties.push(...stdout.properties, ...stderr.properties);
  const attachments = [...stdout.attachments, ...stderr.attachments];
  return {
    ...attempt,
    ...(stdout.text ? { console_log: stdout.text } : {}),
    ...(stderr.text ? { console_errors: stderr.text } : {}),
    ...(attachments.length ? { attachments } : {}),
  };
}

function rerunAttempt(common: Common, rerun: Rerun, properties: Property[]): ResultInput {
  const outcome: Outcome = {
    kind: rerun.kind.endsWith("Error") ? "error" : "failure",
    text: rerun.stackTrace.trim() ? rerun.stackTrace : rerun.text,
    ...(rerun.message !== undefined ? { message: rerun.message } : {}),
    ...(rerun.type !== undefined ? { type: rerun.type } : {}),
  };
  const attempt: ResultInput = {
    ...common,
    status: "failed",
    failure_type: outcome.kind,
    ...errorFields([outcome]),
  };
  return withOutput(attempt, rerun.out, rerun.err, properties);
}

function primaryAttempt(common: Common, record: CaseRecord, properties: Property[]): ResultInput {
  const duration = secondsToMs(record.time);
  const own = timestampToIso(record.timestamp);
  const end =
    own && duration !== undefined
      ? new Date(Date.parse(own) + Math.round(duration)).toISOString()
      : undefined;
  let attempt: ResultInput = {
    ...common,
    status: "passed",
    ...(duration !== undefined ? { duration_ms: duration } : {}),
    ...(end ? { end_time: end } : {}),
  };
  if (record.outcomes.length) {
    attempt = {
      ...attempt,
      status: "failed",
      failure_type: record.outcomes.some((o) => o.kind === "error") ? "error" : "failure",
      ...errorFields(record.outcomes),
    };
  } else if (record.skipped) {
    // node:test writes the value of its `skip` option, usually message="true": no reason.
    const message = record.skipped.message?.trim();
    const reason = (message === "true" ? "" : message) || record.skipped.text.trim();
    attempt = { ...attempt, status: "skipped", ...(reason ? { error_message: reason } : {}) };
  }
  return withOutput(attempt, record.out, record.err, properties);
}

function uniqueAttachments(attachments: readonly AttachmentInput[]): AttachmentInput[] {
  const seen = new Set<string>();
  return attachments.filter((a) => {
    const key = a.path ?? a.body_base64 ?? a.name;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * The attempts of one testcase: flaky runs, the testcase's own run, then reruns, numbered from
 * `firstAttempt`. Steps and `attachment` properties go to the final attempt, which is the one the
 * test's status comes from.
 */
export function caseResults(record: CaseRecord, context: CaseContext): CaseResults {
  const start = timestampToIso(record.timestamp) ?? context.start;
  const file = record.file?.trim() || context.file;
  const common: Common = {
    name: record.name,
    suite_path: context.suitePath,
    ...(file ? { file } : {}),
    ...(start ? { start_time: start } : {}),
  };
  const properties = [...record.properties];
  const flaky = record.reruns.filter((r) => r.kind.startsWith("flaky"));
  const reruns = record.reruns.filter((r) => r.kind.startsWith("rerun"));
  const attempts = [
    ...flaky.map((r) => rerunAttempt(common, r, properties)),
    primaryAttempt(common, record, properties),
    ...reruns.map((r) => rerunAttempt(common, r, properties)),
  ].map((attempt, i) => ({ ...attempt, attempt: context.firstAttempt + i }));
  const final = attempts[attempts.length - 1];
  if (final) {
    const steps = propertySteps(properties, final.status === "passed");
    const attachments = uniqueAttachments([
      ...propertyAttachments(properties),
      ...(final.attachments ?? []),
    ]);
    if (steps.length) final.steps = steps;
    if (attachments.length) final.attachments = attachments;
  }
  return { attempts, properties };
}

/** Adds the suites' attachments to a final attempt, without repeating one. */
export function addAttachments(
  attempt: ResultInput,
  attachments: readonly AttachmentInput[],
): void {
  if (!attachments.length) return;
  attempt.attachments = uniqueAttachments([...attachments, ...(attempt.attachments ?? [])]);
}

/**
 * WebdriverIO's junit reporter writes a retried attempt as a skipped testcase whose <system-err>
 * holds the failure, right before the testcase of the next attempt: that attempt failed.
 */
export function markRetriedSkip(attempt: ResultInput | undefined): void {
  if (attempt?.status !== "skipped" || attempt.error_message || !attempt.console_errors) return;
  Object.assign(attempt, {
    status: "failed",
    failure_type: "failure",
    ...errorFields([{ kind: "failure", text: attempt.console_errors }]),
  });
}
