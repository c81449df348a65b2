import type { AttachmentInput, ResultInput } from "@assay/core";
import {
  assignErrorFields,
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
  message: string | undefined;
  type: string | undefined;
  text: string;
  stackTrace: string;
  out: string;
  err: string;
}

export interface CaseRecord {
  name: string;
  classname: string | undefined;
  file: string | undefined;
  time: string | undefined;
  timestamp: string | undefined;
  properties: Property[];
  out: string;
  err: string;
  outcomes: Outcome[];
  skipped: { message?: string | undefined; text: string } | undefined;
  reruns: Rerun[];
}

/** What the enclosing suites say about a testcase. */
export interface CaseContext {
  suitePath: string[];
  file?: string | undefined;
  start?: string | undefined;
  /** Attempt number of the testcase's first attempt (an earlier testcase may share its name). */
  firstAttempt: number;
}

/** The attempts of a testcase, oldest first, and the testcase-level properties. */
export interface CaseResults {
  attempts: ResultInput[];
  properties: Property[];
}

/*
 * Each attempt is built as one object, its fields set one after the other in the order results
 * have always had (common fields, status, timing, error, output, attempt number, then steps and
 * attachments; junit-suites.ts adds the suites' part): JSON written from a result keeps that
 * order, and no intermediate objects are built and spread per testcase.
 */

/** What every attempt of a testcase shares. */
interface Common {
  name: string;
  suitePath: string[];
  file: string | undefined;
  start: string | undefined;
  /** The testcase's properties; `[[PROPERTY|...]]` lines of each attempt's output join them. */
  properties: Property[];
}

function newAttempt(c: Common, status: ResultInput["status"]): ResultInput {
  const { name, suitePath: suite_path, file, start: start_time } = c;
  if (file) {
    return start_time
      ? { name, suite_path, file, start_time, status }
      : { name, suite_path, file, status };
  }
  return start_time ? { name, suite_path, start_time, status } : { name, suite_path, status };
}

/** Adds an attempt's output; its `[[PROPERTY|...]]` lines are appended to the properties. */
function addOutput(attempt: ResultInput, out: string, err: string, c: Common): void {
  const stdout = out ? readOutput(out) : undefined;
  const stderr = err ? readOutput(err) : undefined;
  // A loop, not push(...list): output can hold more [[PROPERTY|...]] lines than a call has arguments.
  for (const property of stdout?.properties ?? []) c.properties.push(property);
  for (const property of stderr?.properties ?? []) c.properties.push(property);
  if (stdout?.text) attempt.console_log = stdout.text;
  if (stderr?.text) attempt.console_errors = stderr.text;
  const attachments = [...(stdout?.attachments ?? []), ...(stderr?.attachments ?? [])];
  if (attachments.length) attempt.attachments = attachments;
}

function rerunAttempt(c: Common, rerun: Rerun): ResultInput {
  const outcome: Outcome = {
    kind: rerun.kind.endsWith("Error") ? "error" : "failure",
    text: rerun.stackTrace.trim() ? rerun.stackTrace : rerun.text,
    message: rerun.message,
    type: rerun.type,
  };
  const attempt = newAttempt(c, "failed");
  attempt.failure_type = outcome.kind;
  assignErrorFields(attempt, [outcome]);
  addOutput(attempt, rerun.out, rerun.err, c);
  return attempt;
}

function primaryAttempt(c: Common, record: CaseRecord, own: string | undefined): ResultInput {
  const duration = secondsToMs(record.time);
  const end =
    own && duration !== undefined
      ? new Date(Date.parse(own) + Math.round(duration)).toISOString()
      : undefined;
  const { outcomes, skipped } = record;
  const attempt = newAttempt(c, outcomes.length ? "failed" : skipped ? "skipped" : "passed");
  if (duration !== undefined) attempt.duration_ms = duration;
  if (end) attempt.end_time = end;
  if (outcomes.length) {
    attempt.failure_type = outcomes.some((o) => o.kind === "error") ? "error" : "failure";
    assignErrorFields(attempt, outcomes);
  } else if (skipped) {
    // node:test writes the value of its `skip` option, usually message="true": no reason.
    const message = skipped.message?.trim();
    const reason = (message === "true" ? "" : message) || skipped.text.trim();
    if (reason) attempt.error_message = reason;
  }
  addOutput(attempt, record.out, record.err, c);
  return attempt;
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
 * Flaky runs, the testcase's own run, then reruns, built in that order: each one's output
 * properties join the testcase's in turn.
 */
function withReruns(c: Common, record: CaseRecord, own: string | undefined): ResultInput[] {
  const { reruns } = record;
  const flaky = reruns.filter((r) => r.kind.startsWith("flaky")).map((r) => rerunAttempt(c, r));
  const primary = primaryAttempt(c, record, own);
  const later = reruns.filter((r) => r.kind.startsWith("rerun")).map((r) => rerunAttempt(c, r));
  return [...flaky, primary, ...later];
}

/**
 * The attempts of one testcase: flaky runs, the testcase's own run, then reruns, numbered from
 * `firstAttempt`. Steps and `attachment` properties go to the final attempt, which is the one the
 * test's status comes from. The record is consumed: its properties become the result's.
 */
export function caseResults(record: CaseRecord, context: CaseContext): CaseResults {
  const own = record.timestamp === undefined ? undefined : timestampToIso(record.timestamp);
  const c: Common = {
    name: record.name,
    suitePath: context.suitePath,
    file: record.file?.trim() || context.file,
    start: own ?? context.start,
    properties: record.properties,
  };
  // A one-element literal when there are no reruns: `push` would reserve room for 16.
  const attempts = record.reruns.length
    ? withReruns(c, record, own)
    : [primaryAttempt(c, record, own)];
  attempts.forEach((attempt, i) => {
    attempt.attempt = context.firstAttempt + i;
  });
  const properties = c.properties;
  const final = attempts[attempts.length - 1];
  if (final && properties.length) {
    const steps = propertySteps(properties, final.status === "passed");
    if (steps.length) final.steps = steps;
  }
  const fromProperties = properties.length ? propertyAttachments(properties) : [];
  if (final && (fromProperties.length || final.attachments)) {
    const attachments = uniqueAttachments([...fromProperties, ...(final.attachments ?? [])]);
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
 * holds the failure, right before the testcase of the next attempt: that attempt failed. True
 * when `attempt` is such an attempt (now marked failed).
 */
export function markRetriedSkip(attempt: ResultInput | undefined): boolean {
  if (attempt?.status !== "skipped" || attempt.error_message || !attempt.console_errors) {
    return false;
  }
  attempt.status = "failed";
  attempt.failure_type = "failure";
  assignErrorFields(attempt, [{ kind: "failure", text: attempt.console_errors }]);
  return true;
}
