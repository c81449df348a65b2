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
import { countOf, ListedTotals, totalsWarning, type Totals } from "./report-totals.js";
import { ReportError, type ReportFile, type ResultParser, type UploadFiles } from "./types.js";

/*
 * CTRF (Common Test Report Format, ctrf-io/ctrf; a working draft). Reporters older than early
 * 2025 write only `{ results: { tool, summary, tests } }`, without reportFormat/specVersion; both
 * are accepted. The summary is ignored: results are counted from the tests.
 */

const StatusSchema = z.enum(["passed", "failed", "skipped", "pending", "other"]);
const AttachmentSchema = z.object({
  name: z.string(),
  contentType: z.string().optional(),
  path: z.string(),
});
const StepSchema = z.object({ name: z.string(), status: z.string() });
const LinesSchema = z.array(z.string()).optional();
const AttemptSchema = z.object({
  attempt: z.number().optional(),
  attemptId: z.string().optional(),
  status: StatusSchema,
  duration: z.number().optional(),
  start: z.number().optional(),
  stop: z.number().optional(),
  message: z.string().optional(),
  trace: z.string().optional(),
  stdout: LinesSchema,
  stderr: LinesSchema,
  attachments: z.array(AttachmentSchema).optional(),
});
const TestSchema = z.object({
  ...AttemptSchema.shape,
  name: z.string(),
  duration: z.number(),
  suite: z
    .union([z.string(), z.array(z.string())], {
      error: "expected a string or an array of strings",
    })
    .optional(),
  tags: z.array(z.string()).optional(),
  filePath: z.string().optional(),
  retries: z.int().nonnegative().optional(),
  retryAttempts: z.array(AttemptSchema).optional(),
  steps: z.array(StepSchema).optional(),
  browser: z.string().optional(),
  device: z.string().optional(),
  screenshot: z.string().optional(),
  labels: z.record(z.string(), z.unknown()).optional(),
});
/** The report around its tests, which are read one at a time (their list stands as []). */
const ReportSchema = z.object({
  results: z.object({
    tool: z.object({ name: z.string() }),
    tests: z.array(z.unknown()),
  }),
});
const NOT_CTRF = "not a CTRF report: expected an object with results.tool and results.tests";

type Attempt = z.infer<typeof AttemptSchema>;
type Test = z.infer<typeof TestSchema>;
type Path = (string | number)[];

/** True for a CTRF report: `"reportFormat": "CTRF"`, or a `results` object holding a `tool`. */
export function detectCtrf(head: string, _fileName: string): boolean {
  const text = stripBom(head);
  if (!/^\s*\{/.test(text)) return false;
  return (
    /"reportFormat"\s*:\s*"CTRF"/.test(text) ||
    (/"results"\s*:\s*\{/.test(text) && /"tool"\s*:\s*\{/.test(text))
  );
}

/**
 * Parses a CTRF report: one result per test, preceded by its earlier attempts when the report
 * gives them (`retryAttempts`); pending and other count as skipped; `suite` may be an array or a
 * " > "-joined string; attachments point at uploaded files, a base64 `screenshot` is inline.
 */
export const parseCtrf: ResultParser = async function* (file, files, options = {}) {
  const report = new StreamedJson(file, [["results", "tests"]], NOT_CTRF);
  const listed = new ListedTotals();
  for await (const { index, value } of report.elements()) {
    const path = ["results", "tests", index];
    const test = validateReport(file.name, value, TestSchema, path);
    listed.add(toStatus(test.status));
    yield* testResults(test, path, file, files);
  }
  // The rest of the report is checked once read; a failure still refuses the whole upload.
  const results = (report.root as { results?: unknown }).results;
  if (results === null || typeof results !== "object" || Array.isArray(results)) {
    throw new ReportError(file.name, NOT_CTRF);
  }
  validateReport(file.name, report.root, ReportSchema);
  const summary = (results as { summary?: unknown }).summary;
  const warning = totalsWarning(file.name, declaredTotals(summary), listed, "tests");
  if (warning) options.warn?.(warning);
};

/**
 * What a CTRF summary declares: its tests, and the skipped ones (pending and other count as
 * skipped, as the tests' statuses do). Its passed and failed are not compared: reporters count
 * a flaky test (passed on a retry) among the failed there (playwright-ctrf-json-reporter does).
 */
function declaredTotals(summary: unknown): Totals {
  if (summary === null || typeof summary !== "object") return {};
  const s = summary as Record<string, unknown>;
  const skipped = [s.skipped, s.pending, s.other].map(countOf);
  return {
    tests: countOf(s.tests),
    skipped: skipped.every((n) => n === undefined)
      ? undefined
      : skipped.reduce<number>((sum, n) => sum + (n ?? 0), 0),
  };
}

function* testResults(
  test: Test,
  path: Path,
  file: ReportFile,
  files: UploadFiles,
): Generator<ResultInput> {
  const base = {
    name: test.name || "(unnamed test)",
    suite_path: suitePath(test.suite),
    file: test.filePath,
    tags: test.tags ?? [],
    properties: properties(test),
  };
  // The spec numbers attempts from 1 and lists only the earlier ones; their own numbers are used
  // for ordering only, so attempts are always 0, 1, 2… with the test's own entry last.
  const earlier = (test.retryAttempts ?? [])
    .map((attempt, index) => ({ attempt, order: attempt.attempt ?? index }))
    .sort((a, b) => a.order - b.order)
    .map(({ attempt }) => attempt);
  for (const [n, attempt] of earlier.entries()) {
    yield { ...base, ...attemptFields(attempt, file, files), attempt: n };
  }
  const screenshot = screenshotAttachment(test, path, file);
  const final = attemptFields(test, file, files);
  yield {
    ...base,
    ...final,
    // Without per-attempt data only the final attempt exists; its number is the retry count.
    attempt: earlier.length > 0 ? earlier.length : (test.retries ?? 0),
    steps: (test.steps ?? []).map(toStep),
    attachments: [...(final.attachments ?? []), ...screenshot],
  };
}

function suitePath(suite: string | string[] | undefined): string[] {
  if (suite === undefined) return [];
  return typeof suite === "string" ? suite.split(" > ").filter(Boolean) : suite;
}

function properties(test: Test): Record<string, string> | undefined {
  const entries: [string, string][] = [];
  if (test.browser) entries.push(["browser", test.browser]);
  if (test.device) entries.push(["device", test.device]);
  for (const [key, value] of Object.entries(test.labels ?? {})) {
    if (["string", "number", "boolean"].includes(typeof value)) entries.push([key, String(value)]);
  }
  return entries.length > 0 ? Object.fromEntries(entries) : undefined;
}

function toStatus(status: z.infer<typeof StatusSchema>): RawStatus {
  return status === "passed" || status === "failed" ? status : "skipped";
}

// The spec says epoch milliseconds, but playwright-ctrf-json-reporter writes test start/stop in
// seconds; no real run predates 1973, so a value this small is taken as seconds.
const SECONDS_BELOW = 1e11;

function epoch(value: number | undefined): string | undefined {
  if (value === undefined) return undefined;
  return isoTime(value < SECONDS_BELOW ? value * 1000 : value);
}

function attemptFields(
  attempt: Attempt,
  file: ReportFile,
  files: UploadFiles,
): Omit<ResultInput, "name" | "attempt"> {
  const lines = (l: string[] | undefined) => (l && l.length > 0 ? l.join("") : undefined);
  return {
    test_run_test_id:
      attempt.attemptId && attempt.attemptId.length <= 200 ? attempt.attemptId : undefined,
    status: toStatus(attempt.status),
    duration_ms: nonNegative(attempt.duration),
    start_time: epoch(attempt.start),
    end_time: epoch(attempt.stop),
    error_message: stripAnsi(attempt.message),
    error_stack: stripAnsi(attempt.trace),
    console_log: lines(attempt.stdout),
    console_errors: lines(attempt.stderr),
    // playwright-ctrf-json-reporter writes "" for an attachment that has no file.
    attachments: (attempt.attachments ?? []).flatMap((a): AttachmentInput[] =>
      a.path
        ? [
            {
              name: a.name || "attachment",
              content_type: a.contentType ?? "application/octet-stream",
              path: resolveUploadPath(file.name, a.path, files),
            },
          ]
        : [],
    ),
  };
}

function screenshotAttachment(test: Test, path: Path, file: ReportFile): AttachmentInput[] {
  if (test.screenshot === undefined) return [];
  const body = cleanBase64(test.screenshot);
  if (body === undefined) {
    throw new ReportError(file.name, "screenshot is not valid base64", {
      path: jsonPath([...path, "screenshot"]),
    });
  }
  return [{ name: "screenshot", content_type: "image/png", body_base64: body }];
}

function toStep(step: z.infer<typeof StepSchema>): StepInput {
  return {
    action: step.name,
    passed: step.status === "passed" ? true : step.status === "failed" ? false : null,
  };
}
