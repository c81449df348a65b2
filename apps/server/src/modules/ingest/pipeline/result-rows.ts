import type { ResultInput } from "@assay/core";
import { encodeCopyRow, json, jsonText, type CopyValue } from "../encoding/copy.js";
import { digestOf } from "../encoding/fingerprints.js";

/**
 * Columns of `results` written by COPY: the two ids the database hands out and the id of the
 * result's tuple of facts (RowBuffer.chunks writes them), then the columns of encodeResultTail.
 * The run facts themselves are in result_facts (result-facts.ts), not in the row.
 */
export const RESULT_COLUMNS = [
  "id",
  "test_id",
  "facts_id",
  "run_id",
  "run_at",
  "test_run_test_id",
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
  "stack_ref",
  "log_ref",
  "console_errors",
  "request_errors",
  "tags",
  "start_time",
  "end_time",
  "duration_ms",
  "properties",
  "steps_ref",
  "before_steps_ref",
] as const;

/**
 * The run-wide id of a result without an explicit one: the test's identity plus its attempt,
 * so the same report uploaded again yields the same ids (and is recognised as a duplicate).
 */
export function derivedTestRunTestId(identity: string, attempt: number): string {
  const id = digestOf(identity).slice(0, 16);
  return attempt > 0 ? `${id}-r${attempt}` : id;
}

/**
 * The last result's properties as a JSON value. A JUnit report's testcases share their suite's
 * properties record (junit-suites.ts), so most results repeat the last one's, whose text is then
 * encoded once, not again per result (100k results: ~0.1 s of the parse thread).
 */
let lastProperties = json(undefined);
function propertiesValue(properties: ResultInput["properties"]) {
  if (properties !== lastProperties.value) lastProperties = json(properties);
  return lastProperties;
}

/** The result's steps (or its before steps) as the JSON text stored; null when it has none. */
function stepsText(result: ResultInput, before: boolean): string | null {
  if (!result.steps || result.steps.length === 0) return null;
  const steps = result.steps
    .filter((step) => (step.before ?? false) === before)
    .map((step) => ({
      action: step.action,
      passed: step.passed,
      ...(step.location !== undefined && { location: step.location }),
      ...(step.duration_ms !== undefined && { duration_ms: step.duration_ms }),
    }));
  return steps.length === 0 ? null : jsonText(steps);
}

/**
 * Where a result's long texts go (result-texts.ts): `ref` gives the key its row holds and hands
 * a text new to the upload to the batch.
 */
export interface TextRefs {
  ref(text: string | null): string | null;
}

/**
 * Facts of the whole run (site, branch, commit, executor) for results whose report does not
 * carry them per test, as Cucumber and Mocha reports do not.
 */
export type RunFacts = Pick<
  ResultInput,
  "nora_site" | "branch" | "commit_hash" | "executor" | "baseurl"
>;

/** What a result's row holds besides the result: where it belongs. */
export interface ResultPlace {
  runId: number;
  /** The run's created_at (ISO text): results' partition key (migration 0191). */
  runAt: string;
  testRunTestId: string;
  /**
   * Whether its suite path, file and name are its test's, which `tests` holds: the row holds
   * NULL in all three then (migration 0221).
   */
  testsNames?: boolean;
}

/**
 * A result's COPY line without its first three columns: everything after facts_id, with the
 * newline. Encoded as soon as the result is parsed, so the parsed objects can be dropped while
 * the result waits for its batch; the result's id, its test's stable id and its facts' id are
 * known only once the batch reaches the database, which puts them in front (RowBuffer.chunks).
 */
export function encodeResultTail(place: ResultPlace, result: ResultInput, texts: TextRefs): string {
  return encodeCopyRow(resultTail(place, result, texts));
}

function resultTail(place: ResultPlace, result: ResultInput, texts: TextRefs): CopyValue[] {
  return [
    place.runId,
    place.runAt,
    place.testRunTestId,
    result.attempt ?? 0,
    result.status,
    result.failure_type,
    place.testsNames ? null : result.name,
    place.testsNames ? null : (result.suite_path ?? []),
    result.title,
    result.scenario,
    result.description,
    place.testsNames ? null : result.file,
    result.root_path,
    result.body,
    result.error_message,
    result.error_name,
    texts.ref(result.error_stack ?? null),
    texts.ref(result.console_log ?? null),
    result.console_errors,
    result.request_errors,
    result.tags ?? [],
    result.start_time,
    result.end_time,
    result.duration_ms ?? 0,
    propertiesValue(result.properties),
    texts.ref(stepsText(result, false)),
    texts.ref(stepsText(result, true)),
  ];
}
