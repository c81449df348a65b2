import type { ResultInput } from "@assay/core";
import type { ContainerIndex, Fixture } from "./allure-containers.js";
import { durationMs, isoTime, type AllureResult } from "./allure-model.js";
import { isFailure, StepCollector, type SourceResolver } from "./allure-steps.js";
import { ReportError, type ParsedResult } from "./types.js";

const SUITE_LABELS = ["parentSuite", "suite", "subSuite"] as const;
const BEHAVIOR_LABELS = ["epic", "feature", "story"] as const;
/** Labels worth keeping as properties; host, thread, language etc. say nothing about the test. */
const PROPERTY_LABELS = ["epic", "feature", "story", "severity", "owner", "ALLURE_ID"] as const;
const MASKED = "******";

type Outcome = Pick<ResultInput, "status" | "failure_type" | "error_message" | "error_stack">;

/** Where one result file stands among the attempts of its test. */
export interface AttemptContext {
  fileName: string;
  attempt: number;
  containers: ContainerIndex;
  resolve: SourceResolver;
}

/**
 * One Allure test result as Assay's result: labels give the suite path and tags, container
 * fixtures become before steps (a failed one fails the test: a setup failure), steps are
 * flattened in order, and only attachments found in the upload are kept.
 */
export function toResultInput(result: AllureResult, ctx: AttemptContext): ParsedResult {
  const labels = labelValues(result);
  const { befores, afters } = ctx.containers.fixturesOf(result.uuid);
  const collector = new StepCollector(ctx.fileName);
  for (const fixture of befores) collector.addSteps([fixture.step], fixture.resolve, true);
  collector.addSteps(result.steps, ctx.resolve, false);
  for (const fixture of afters) collector.addSteps([fixture.step], fixture.resolve, true);
  collector.addAttachments(result.attachments, ctx.resolve);

  const uuid = result.uuid;
  const properties = propertiesOf(result, labels);
  const start = isoTime(result.start);
  const end = isoTime(result.stop);
  return {
    ...(uuid && uuid.length <= 200 ? { test_run_test_id: uuid } : {}),
    name: nameOf(result, ctx.fileName),
    suite_path: suitePath(result, labels),
    ...(result.description ? { description: result.description } : {}),
    ...outcomeOf(result, befores),
    attempt: ctx.attempt,
    // Allure's own rule for retries: results of one historyId (see planAttempts).
    testKey: result.historyId ? `history:${result.historyId}` : `file:${ctx.fileName}`,
    tags: [...new Set(labels.get("tag") ?? [])],
    ...(start ? { start_time: start } : {}),
    ...(end ? { end_time: end } : {}),
    duration_ms: durationMs(result.start, result.stop) ?? 0,
    ...(Object.keys(properties).length > 0 ? { properties } : {}),
    steps: collector.steps,
    attachments: collector.attachments,
  };
}

function nameOf(result: AllureResult, fileName: string): string {
  const name = result.name || result.fullName;
  if (!name)
    throw new ReportError(fileName, "the test result has an empty name", { path: "$.name" });
  return name;
}

/** Label values by name, in report order; labels without a value are skipped. */
function labelValues(result: AllureResult): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const { name, value } of result.labels ?? []) {
    if (!value) continue;
    const list = map.get(name);
    if (list) list.push(value);
    else map.set(name, [value]);
  }
  return map;
}

/**
 * parentSuite > suite > subSuite, as Allure's Suites tab shows them; adapters that only write
 * behaviour labels get epic > feature > story; the last resort is Allure 3's titlePath.
 */
function suitePath(result: AllureResult, labels: Map<string, string[]>): string[] {
  for (const names of [SUITE_LABELS, BEHAVIOR_LABELS]) {
    const path = names.flatMap((name) => labels.get(name)?.slice(0, 1) ?? []);
    if (path.length > 0) return path;
  }
  return result.titlePath ?? [];
}

/**
 * broken (an unexpected exception) counts as failed with failure_type "error", failed (an
 * assertion) as "failure"; unknown and anything unrecognised as skipped. A failed before fixture
 * makes the test failed with the fixture's error unless the test already failed on its own.
 */
function outcomeOf(result: AllureResult, befores: readonly Fixture[]): Outcome {
  const setup = befores.find((f) => isFailure(f.step.status));
  const own = result.statusDetails;
  if (isFailure(result.status)) {
    const details = own?.message || own?.trace ? own : setup?.step.statusDetails;
    return {
      status: "failed",
      failure_type: result.status === "broken" ? "error" : "failure",
      ...errorOf(details),
    };
  }
  if (setup) {
    return {
      status: "failed",
      failure_type: setup.step.status === "broken" ? "error" : "failure",
      ...errorOf(setup.step.statusDetails),
    };
  }
  return { status: result.status === "passed" ? "passed" : "skipped" };
}

function errorOf(
  details: { message?: string | null; trace?: string | null } | null | undefined,
): Pick<ResultInput, "error_message" | "error_stack"> {
  return {
    ...(details?.message ? { error_message: details.message } : {}),
    ...(details?.trace ? { error_stack: details.trace } : {}),
  };
}

/**
 * Allure's identity fields, the behaviour labels and the parameters (as `param.<name>`) that
 * tell one parametrised run from another. Excluded parameters only vary between retries and
 * hidden ones must not be shown, so both are left out; masked values stay masked.
 */
function propertiesOf(result: AllureResult, labels: Map<string, string[]>): Record<string, string> {
  const entries: [string, string][] = [];
  if (result.fullName) entries.push(["fullName", result.fullName]);
  if (result.historyId) entries.push(["historyId", result.historyId]);
  if (result.testCaseId) entries.push(["testCaseId", result.testCaseId]);
  for (const name of PROPERTY_LABELS) {
    const values = labels.get(name);
    if (values) entries.push([name, values.join(", ")]);
  }
  for (const p of result.parameters ?? []) {
    if (p.excluded || p.mode === "hidden") continue;
    entries.push([`param.${p.name}`, p.mode === "masked" ? MASKED : (p.value ?? "")]);
  }
  // fromEntries defines own properties, so a key like "__proto__" cannot reach a prototype.
  return Object.fromEntries(entries);
}
