import type { AttachmentInput, RawStatus, ResultInput, StepInput } from "@assay/core";
import { z } from "zod";
import { jsonPath } from "./json.js";
import { StreamedJson } from "./json-stream.js";
import {
  cleanBase64,
  isoTime,
  nonNegative,
  resolveUploadPath,
  stripAnsi,
  stripBom,
  validateReport,
} from "./json-report.js";
import { ReportError, type ReportFile, type ResultParser, type UploadFiles } from "./types.js";

/*
 * Playwright's JSON reporter (`--reporter=json`): file suites → describe suites → specs → one
 * test per project → one result per attempt (retry).
 */

const ErrorSchema = z.object({
  message: z.string().optional(),
  stack: z.string().optional(),
  value: z.string().optional(),
});
const StepSchema = z.object({
  title: z.string(),
  duration: z.number().optional(),
  error: ErrorSchema.optional(),
  get steps(): z.ZodOptional<z.ZodArray<typeof StepSchema>> {
    return z.array(StepSchema).optional();
  },
});
const OutputSchema = z.object({ text: z.string().optional(), buffer: z.string().optional() });
const AttachmentSchema = z.object({
  name: z.string(),
  contentType: z.string().optional(),
  path: z.string().optional(),
  body: z.string().optional(),
});
const ResultSchema = z.object({
  status: z.enum(["passed", "failed", "timedOut", "skipped", "interrupted"]),
  retry: z.int().nonnegative(),
  duration: z.number().optional(),
  startTime: z.string().optional(),
  error: ErrorSchema.optional(),
  errors: z.array(ErrorSchema).optional(),
  stdout: z.array(OutputSchema).optional(),
  stderr: z.array(OutputSchema).optional(),
  attachments: z.array(AttachmentSchema).optional(),
  steps: z.array(StepSchema).optional(),
});
const AnnotationSchema = z.object({ type: z.string(), description: z.string().optional() });
const TestSchema = z.object({
  projectName: z.string().optional(),
  expectedStatus: z.string().optional(),
  status: z.enum(["skipped", "expected", "unexpected", "flaky"]).optional(),
  annotations: z.array(AnnotationSchema).optional(),
  results: z.array(ResultSchema),
});
const SpecSchema = z.object({
  title: z.string(),
  file: z.string().optional(),
  tags: z.array(z.string()).optional(),
  tests: z.array(TestSchema),
});
const SuiteSchema = z.object({
  title: z.string(),
  file: z.string().optional(),
  specs: z.array(SpecSchema).optional(),
  get suites(): z.ZodOptional<z.ZodArray<typeof SuiteSchema>> {
    return z.array(SuiteSchema).optional();
  },
});
const ConfigSchema = z.object({
  config: z.object({ projects: z.array(z.unknown()).optional() }).optional(),
});
/** The report around its file suites, which are read one at a time (their list stands as []). */
const ReportSchema = z.object({ ...ConfigSchema.shape, suites: z.array(z.unknown()) });
const NOT_PLAYWRIGHT =
  "not a Playwright JSON report: expected an object with config and suites, as written by `--reporter=json`";

type Step = z.infer<typeof StepSchema>;
type Result = z.infer<typeof ResultSchema>;
type Test = z.infer<typeof TestSchema>;
type Spec = z.infer<typeof SpecSchema>;
type Suite = z.infer<typeof SuiteSchema>;
type Path = (string | number)[];

interface Context {
  file: ReportFile;
  files: UploadFiles;
  multiProject: boolean;
}

/**
 * True for Playwright's JSON report: an object whose first key is `config`, with keys only
 * Playwright's config has (the suites may lie beyond the first 4 KB when there are many projects).
 */
export function detectPlaywright(head: string, _fileName: string): boolean {
  const text = stripBom(head);
  return (
    /^\s*\{\s*"config"\s*:\s*\{/.test(text) &&
    /"(suites|rootDir|configFile|fullyParallel|forbidOnly)"\s*:/.test(text)
  );
}

/**
 * Parses a Playwright JSON report: one result per attempt, suite path = spec file + describe
 * titles (with the project first when the run had several), final status from the test's outcome
 * (flaky = passed on retry), steps from test.step, attachments by uploaded path or inline body.
 */
export const parsePlaywright: ResultParser = async function* (file, files) {
  const report = new StreamedJson(file, [["suites"]], NOT_PLAYWRIGHT);
  let context: Context | undefined;
  for await (const { index, value } of report.elements()) {
    // Playwright writes the config before the suites, so the projects are known by now.
    context ??= { file, files, multiProject: multiProject(file.name, report.root) };
    const path = ["suites", index];
    yield* suiteResults(validateReport(file.name, value, SuiteSchema, path), [], path, context);
  }
  // The rest of the report is checked once read; a failure still refuses the whole upload.
  if (!Array.isArray((report.root as { suites?: unknown }).suites)) {
    throw new ReportError(file.name, NOT_PLAYWRIGHT);
  }
  validateReport(file.name, report.root, ReportSchema);
};

function multiProject(fileName: string, root: unknown): boolean {
  const { config } = validateReport(fileName, root, ConfigSchema);
  return (config?.projects?.length ?? 0) > 1;
}

function* suiteResults(
  suite: Suite,
  parents: string[],
  path: Path,
  context: Context,
): Generator<ResultInput> {
  const titles = [...parents, suite.title || suite.file || ""];
  for (const [i, spec] of (suite.specs ?? []).entries()) {
    yield* specResults(spec, titles, [...path, "specs", i], context);
  }
  for (const [i, child] of (suite.suites ?? []).entries()) {
    yield* suiteResults(child, titles, [...path, "suites", i], context);
  }
}

function* specResults(
  spec: Spec,
  titles: string[],
  path: Path,
  context: Context,
): Generator<ResultInput> {
  const projects = new Set(spec.tests.map((t) => t.projectName ?? ""));
  for (const [i, test] of spec.tests.entries()) {
    const project = test.projectName ?? "";
    const withProject = project !== "" && (context.multiProject || projects.size > 1);
    const base = {
      name: spec.title || "(untitled test)",
      suite_path: withProject ? [project, ...titles] : titles,
      file: spec.file,
      ...labels(spec, test),
    };
    const results = [...test.results].sort((a, b) => a.retry - b.retry);
    if (results.length === 0) {
      // Listed but never run (e.g. the run stopped at maxFailures): kept as skipped.
      yield { ...base, status: "skipped" };
      continue;
    }
    for (const [j, result] of results.entries()) {
      const resultPath = [...path, "tests", i, "results", test.results.indexOf(result)];
      const status =
        j === results.length - 1 ? finalStatus(test, result) : attemptStatus(test, result);
      yield { ...base, ...attemptFields(result, resultPath, context), status };
    }
  }
}

/** Tags from spec tags and `tag` annotations; other annotations (issue, skip reason…) as properties. */
function labels(spec: Spec, test: Test): Pick<ResultInput, "tags" | "properties"> {
  const tags = [...(spec.tags ?? [])];
  // A Map, then fromEntries: an annotation type such as "__proto__" stays a plain key.
  const properties = new Map<string, string>();
  if (test.projectName) properties.set("project", test.projectName);
  for (const { type, description } of test.annotations ?? []) {
    if (type === "tag" && description) tags.push(description);
    else if (description) {
      const earlier = properties.get(type);
      properties.set(type, earlier ? `${earlier}; ${description}` : description);
    }
  }
  return {
    tags: [...new Set(tags)],
    properties: properties.size > 0 ? Object.fromEntries(properties) : undefined,
  };
}

/** An attempt passed when its status is the expected one (test.fail() expects "failed"). */
function attemptStatus(test: Test, result: Result): RawStatus {
  if (result.status === "skipped") return "skipped";
  return result.status === (test.expectedStatus ?? "passed") ? "passed" : "failed";
}

/** The last attempt carries the test's outcome: flaky means it passed on a retry. */
function finalStatus(test: Test, result: Result): RawStatus {
  switch (test.status) {
    case "skipped":
      return "skipped";
    case "unexpected":
      return "failed";
    case "flaky":
      return "passed";
    case "expected":
      return result.status === "skipped" ? "skipped" : "passed";
    default:
      return attemptStatus(test, result);
  }
}

function attemptFields(
  result: Result,
  path: Path,
  context: Context,
): Omit<ResultInput, "name" | "status"> {
  const error = result.error ?? result.errors?.[0];
  const message = stripAnsi(error?.message ?? error?.value);
  const start = isoTime(result.startTime);
  const duration = nonNegative(result.duration);
  return {
    attempt: result.retry,
    duration_ms: duration,
    start_time: start,
    end_time: start ? isoTime(Date.parse(start) + duration) : undefined,
    error_message: message,
    error_name: errorName(message),
    error_stack: stripAnsi(error?.stack),
    console_log: joinOutput(result.stdout),
    console_errors: joinOutput(result.stderr),
    steps: flattenSteps(result.steps ?? []),
    attachments: (result.attachments ?? []).flatMap((a, i) =>
      toAttachment(a, [...path, "attachments", i], context),
    ),
  };
}

/** "TimeoutError: …" → "TimeoutError"; Playwright gives no separate name. */
function errorName(message: string | undefined): string | undefined {
  const name = message && /^([A-Za-z_$][\w$.]*):/.exec(message)?.[1];
  return name && /(Error|Exception)$/.test(name) ? name : undefined;
}

function joinOutput(chunks: z.infer<typeof OutputSchema>[] | undefined): string | undefined {
  const text = (chunks ?? [])
    .map((c) => c.text ?? (c.buffer ? Buffer.from(c.buffer, "base64").toString("utf8") : ""))
    .join("");
  return text ? stripAnsi(text) : undefined;
}

/** test.step nests; Assay's steps are a flat list, parents before their children. */
function flattenSteps(steps: Step[], into: StepInput[] = []): StepInput[] {
  for (const step of steps) {
    into.push({ action: step.title, passed: !step.error, duration_ms: nonNegative(step.duration) });
    flattenSteps(step.steps ?? [], into);
  }
  return into;
}

function toAttachment(
  attachment: z.infer<typeof AttachmentSchema>,
  path: Path,
  context: Context,
): AttachmentInput[] {
  const base = {
    name: attachment.name || "attachment",
    content_type: attachment.contentType ?? "application/octet-stream",
  };
  if (attachment.body !== undefined) {
    const body = cleanBase64(attachment.body);
    if (body === undefined) {
      throw new ReportError(context.file.name, "attachment body is not valid base64", {
        path: jsonPath([...path, "body"]),
      });
    }
    return [{ ...base, body_base64: body }];
  }
  if (!attachment.path) return [];
  return [{ ...base, path: resolveUploadPath(context.file.name, attachment.path, context.files) }];
}
