import type { AttachmentInput, ResultInput, StepInput } from "@assay/core";
import { z } from "zod";
import { jsonPath } from "./json.js";
import { StreamedJson } from "./json-stream.js";
import { cleanBase64, isoTime, stripBom, validateReport } from "./json-report.js";
import { ReportError, type ReportFile, type ResultParser } from "./types.js";

/*
 * Cucumber JSON (cucumber-js `--format json`, cucumber-jvm, cucumber-ruby): features, their
 * scenarios ("elements") and steps. One result per scenario; the format keeps only the last
 * attempt of a retried scenario, so there is one attempt per result.
 */

const NS_PER_MS = 1_000_000;

const TagSchema = z.object({ name: z.string() });
const EmbeddingSchema = z.object({
  data: z.string(),
  mime_type: z.string().optional(),
  media: z.object({ type: z.string().optional() }).optional(),
  name: z.string().optional(),
});
const StepResultSchema = z.object({
  status: z.string(),
  duration: z.number().optional(),
  error_message: z.string().optional(),
});
// JVM and Ruby hooks sit in before/after arrays without keyword or name; cucumber-js writes them
// as hidden steps with keyword Before/After.
const StepSchema = z.object({
  keyword: z.string().optional(),
  name: z.string().optional(),
  line: z.number().optional(),
  hidden: z.boolean().optional(),
  match: z.object({ location: z.string().optional() }).optional(),
  result: StepResultSchema,
  embeddings: z.array(EmbeddingSchema).optional(),
  output: z.array(z.string()).optional(),
});
const ElementSchema = z.object({
  id: z.string().optional(),
  keyword: z.string().optional(),
  name: z.string().optional(),
  description: z.string().optional(),
  line: z.number().optional(),
  type: z.string().optional(),
  start_timestamp: z.string().optional(),
  tags: z.array(TagSchema).optional(),
  before: z.array(StepSchema).optional(),
  after: z.array(StepSchema).optional(),
  steps: z.array(StepSchema).optional(),
});
/**
 * What wdio-cucumberjs-json-reporter (and multiple-cucumber-html-reporter's input) writes on each
 * feature: the browser and platform the scenarios ran on. Other metadata keys are left alone.
 */
const NamedSchema = z.object({ name: z.unknown(), version: z.unknown() }).partial();
const MetadataSchema = z.object({ browser: NamedSchema, platform: NamedSchema }).partial();
const FeatureSchema = z.object({
  uri: z.string().optional(),
  metadata: MetadataSchema.optional().catch(undefined),
  name: z.string().optional(),
  tags: z.array(TagSchema).optional(),
  elements: z.array(ElementSchema).optional(),
});

type Step = z.infer<typeof StepSchema>;
type Element = z.infer<typeof ElementSchema>;
type Feature = z.infer<typeof FeatureSchema>;
type Path = (string | number)[];

/** Statuses that make a scenario fail; pending and skipped ones make it skipped. */
const FAILING = new Set(["failed", "undefined", "ambiguous"]);

/**
 * True for a Cucumber JSON report: a top-level array whose first feature has `elements`, or a
 * `keyword` and a `uri`.
 */
export function detectCucumber(head: string, _fileName: string): boolean {
  const text = stripBom(head);
  if (!/^\s*\[\s*\{/.test(text)) return false;
  return /"elements"\s*:\s*\[/.test(text) || (/"keyword"\s*:/.test(text) && /"uri"\s*:/.test(text));
}

/**
 * Parses a Cucumber JSON report: each scenario (and each example of a scenario outline) is one
 * result, suite path [feature name]; hooks and Background steps are before steps; embeddings are
 * inline attachments on the step that made them; durations are converted from nanoseconds.
 */
export const parseCucumber: ResultParser = async function* (file: ReportFile) {
  // Feature by feature as the file is read: memory holds one feature, not the report.
  const report = new StreamedJson(file, [[]], NOT_CUCUMBER);
  for await (const { index, value } of report.elements()) {
    const feature = validateReport(file.name, value, FeatureSchema, [index]);
    yield* featureResults(file.name, feature, [index]);
  }
};

const NOT_CUCUMBER =
  "not a Cucumber JSON report: expected an array of features, as written by `--format json`";

function* featureResults(fileName: string, feature: Feature, path: Path): Generator<ResultInput> {
  const elements = feature.elements ?? [];
  const scenarios = elements.filter((e) => e.type !== "background");
  const backgroundLines = findBackgroundLines(scenarios);
  const examples = exampleNumbers(scenarios);
  const featureName = feature.name || feature.uri || "";
  // JVM and Ruby write the Background as its own element before each scenario.
  let background: StepRun[] = [];
  for (const [i, element] of elements.entries()) {
    const elementPath = [...path, "elements", i];
    if (element.type === "background") {
      background = runs(element.steps, elementPath, "steps", () => ({ before: true }));
      continue;
    }
    const scenario = { feature, featureName, element, elementPath, background };
    yield scenarioResult(fileName, scenario, backgroundLines, examples);
    background = [];
  }
}

function isHook(step: Step): boolean {
  const keyword = step.keyword?.trim();
  return step.hidden === true || ((keyword === "Before" || keyword === "After") && !step.name);
}

function gherkinLines(element: Element): number[] {
  return (element.steps ?? []).filter((s) => !isHook(s)).flatMap((s) => s.line ?? []);
}

/**
 * cucumber-js merges the Background into every scenario without marking it. A plain scenario's
 * own steps follow its line, so the steps above its line are Background steps. An outline
 * example's line is its Examples row, below all its steps, so for those the lines found on plain
 * scenarios are used, plus the leading lines every scenario of the feature shares.
 */
function findBackgroundLines(scenarios: Element[]): Set<number> {
  const lines = new Set<number>();
  const sequences = scenarios.map(gherkinLines);
  scenarios.forEach((element, i) => {
    const line = element.line;
    const own = sequences[i] ?? [];
    if (line === undefined || !own.some((l) => l > line)) return;
    for (const l of own) if (l < line) lines.add(l);
  });
  if (new Set(scenarios.map((e) => e.name)).size >= 2) {
    const [first = [], ...rest] = sequences;
    for (let i = 0; i < first.length && rest.every((seq) => seq[i] === first[i]); i++) {
      lines.add(first[i] as number);
    }
  }
  return lines;
}

/**
 * Outline examples share their scenario's name (and in cucumber-js their id), which would make
 * them one test: they are told apart as "name (example N)". An element is an outline example
 * when none of its steps lies below its line (its line is the Examples row); scenarios that
 * share a name are numbered too.
 */
function exampleNumbers(scenarios: Element[]): Map<Element, number> {
  const counts = new Map<string, number>();
  for (const e of scenarios) counts.set(e.name ?? "", (counts.get(e.name ?? "") ?? 0) + 1);
  const seen = new Map<string, number>();
  const numbers = new Map<Element, number>();
  for (const element of scenarios) {
    const name = element.name ?? "";
    const n = (seen.get(name) ?? 0) + 1;
    seen.set(name, n);
    const lines = gherkinLines(element);
    const line = element.line;
    const outline = line !== undefined && lines.length > 0 && lines.every((l) => l < line);
    if (outline || (counts.get(name) ?? 0) > 1) numbers.set(element, n);
  }
  return numbers;
}

interface StepRun {
  step: Step;
  /** JSON path of the step, for error messages. */
  path: Path;
  hook?: "Before" | "After";
  before: boolean;
}

interface Scenario {
  feature: Feature;
  featureName: string;
  element: Element;
  elementPath: Path;
  /** Steps of a separate Background element (JVM, Ruby) that precedes this scenario. */
  background: StepRun[];
}

function runs(
  steps: Step[] | undefined,
  path: Path,
  key: string,
  kind: (step: Step) => Pick<StepRun, "hook" | "before">,
): StepRun[] {
  return (steps ?? []).map((step, i) => ({ step, path: [...path, key, i], ...kind(step) }));
}

function scenarioResult(
  fileName: string,
  { feature, featureName, element, elementPath, background }: Scenario,
  backgroundLines: Set<number>,
  examples: Map<Element, number>,
): ResultInput {
  const all: StepRun[] = [
    ...runs(element.before, elementPath, "before", () => ({ hook: "Before", before: true })),
    ...background,
    ...runs(element.steps, elementPath, "steps", (step) => inlineStep(step, backgroundLines)),
    ...runs(element.after, elementPath, "after", () => ({ hook: "After", before: true })),
  ];
  const steps: StepInput[] = [];
  const attachments: AttachmentInput[] = [];
  const output: string[] = [];
  const startTime = isoTime(element.start_timestamp);
  let durationNs = 0;
  for (const run of all) {
    const step = toStep(run, feature.uri);
    const index = steps.push(step) - 1;
    durationNs += Math.max(0, run.step.result.duration ?? 0);
    // An embedding shows the page as its step left it: described by the step unless the report
    // names it (cucumber-jvm's attach(data, type, name)), taken as the step ended (known when
    // the report gives the scenario's start, as cucumber-jvm does).
    const shot = {
      stepIndex: index,
      action: step.passed === false ? `${step.action} (failed)` : step.action,
      timestamp: startTime && isoTime(Date.parse(startTime) + durationNs / NS_PER_MS),
    };
    for (const [k, embedding] of (run.step.embeddings ?? []).entries()) {
      const where = jsonPath([...run.path, "embeddings", k, "data"]);
      attachments.push(toAttachment(fileName, where, embedding, attachments.length + 1, shot));
    }
    output.push(...(run.step.output ?? []));
  }
  const scenarioName =
    element.name || `${element.keyword ?? "Scenario"} at line ${element.line ?? "?"}`;
  const example = examples.get(element);
  const durationMs = durationNs / NS_PER_MS;
  const tags = [...(feature.tags ?? []), ...(element.tags ?? [])].map((t) => t.name);
  return {
    name: example === undefined ? scenarioName : `${scenarioName} (example ${example})`,
    suite_path: [featureName],
    title: featureName,
    scenario: scenarioName,
    description: element.description?.trim() || undefined,
    file: feature.uri,
    tags: [...new Set(tags)],
    ...outcome(all),
    start_time: startTime,
    end_time: startTime ? isoTime(Date.parse(startTime) + durationMs) : undefined,
    duration_ms: durationMs,
    console_log: output.length > 0 ? output.join("\n") : undefined,
    steps,
    attachments,
    ...environmentOf(feature),
  };
}

const text = (value: unknown) =>
  typeof value === "string" && value.trim() ? value.trim() : undefined;

/** The browser version and platform a feature's metadata names, as result fields. */
function environmentOf(feature: Feature): Pick<ResultInput, "chrome_version" | "platform"> {
  const chrome = text(feature.metadata?.browser?.version);
  const platform = text(feature.metadata?.platform?.name);
  return {
    ...(chrome !== undefined && { chrome_version: chrome }),
    ...(platform !== undefined && { platform }),
  };
}

function inlineStep(step: Step, backgroundLines: Set<number>): Pick<StepRun, "hook" | "before"> {
  if (isHook(step))
    return { hook: step.keyword?.trim() === "After" ? "After" : "Before", before: true };
  return { before: step.line !== undefined && backgroundLines.has(step.line) };
}

function action(run: StepRun): string {
  if (run.hook) return run.hook;
  return `${run.step.keyword?.trim() ?? ""} ${run.step.name ?? ""}`.trim() || "Step";
}

function toStep(run: StepRun, uri: string | undefined): StepInput {
  const status = run.step.result.status.toLowerCase();
  const line = run.step.line;
  const location =
    run.step.match?.location ?? (uri && line !== undefined ? `${uri}:${line}` : undefined);
  return {
    action: action(run),
    passed:
      status === "passed" ? true : status === "failed" || status === "ambiguous" ? false : null,
    location,
    duration_ms: Math.max(0, run.step.result.duration ?? 0) / NS_PER_MS,
    before: run.before,
  };
}

const EXTENSIONS: Record<string, string> = {
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/gif": "gif",
  "text/plain": "txt",
  "text/html": "html",
  "application/json": "json",
};

/** Text types older cucumber-js and cucumber-ruby embedded as plain text rather than base64. */
const TEXT_TYPE = /^(text\/|application\/(json|xml)\b)/i;

function toAttachment(
  fileName: string,
  where: string,
  embedding: z.infer<typeof EmbeddingSchema>,
  number: number,
  shot: { stepIndex: number; action: string; timestamp: string | undefined },
): AttachmentInput {
  const contentType = embedding.mime_type ?? embedding.media?.type ?? "application/octet-stream";
  let body = cleanBase64(embedding.data);
  if (body === undefined) {
    if (!TEXT_TYPE.test(contentType)) {
      throw new ReportError(fileName, `embedding of type ${contentType} is not valid base64`, {
        path: where,
      });
    }
    body = Buffer.from(embedding.data, "utf8").toString("base64");
  }
  const extension = EXTENSIONS[contentType.split(";")[0]?.trim() ?? ""] ?? "bin";
  return {
    name: embedding.name || `attachment-${number}.${extension}`,
    content_type: contentType,
    step_index: shot.stepIndex,
    description: embedding.name || shot.action,
    ...(shot.timestamp && { timestamp: shot.timestamp }),
    body_base64: body,
  };
}

/** Passed unless a step failed, is undefined or ambiguous; pending or skipped steps: skipped. */
function outcome(runs: StepRun[]): Pick<ResultInput, "status" | "error_message" | "error_stack"> {
  const failing = runs.find((r) => FAILING.has(r.step.result.status.toLowerCase()));
  if (failing) return { status: "failed", ...describeProblem(failing) };
  const notRun = runs.find((r) => r.step.result.status.toLowerCase() !== "passed");
  if (notRun) return { status: "skipped", ...describeProblem(notRun) };
  return { status: "passed" };
}

function describeProblem(run: StepRun): { error_message: string; error_stack?: string } {
  const status = run.step.result.status.toLowerCase();
  const text = run.step.result.error_message;
  const what = run.hook ? `${run.hook} hook` : `step "${action(run)}"`;
  // cucumber-js puts message and stack in one string; the message is what precedes the frames.
  const message = text?.split(/\n\s+at /)[0]?.trim();
  const reason =
    status === "failed"
      ? `${what} failed`
      : status === "undefined"
        ? `${what} is undefined: no step definition matches it`
        : `${what} is ${status}`;
  const error_message = message ? `${reason}: ${message}` : reason;
  return text ? { error_message, error_stack: text } : { error_message };
}
