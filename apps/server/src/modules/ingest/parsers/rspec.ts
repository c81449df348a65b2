import type { RawStatus } from "@assay/core";
import { z } from "zod";
import { nonNegative, stripAnsi, stripBom, validateReport } from "./json-report.js";
import { StreamedJson } from "./json-stream.js";
import { countOf, ListedTotals, totalsWarning } from "./report-totals.js";
import type { ParsedResult, ResultParser } from "./types.js";

/*
 * RSpec's JSON formatter (`rspec --format json`): `examples` in the order they ran, each with its
 * full description, file and line, status (passed, failed, pending) and, for a failure, the
 * exception with its backtrace; `summary` counts them. Examples are read one at a time. Errors
 * outside examples (a spec file that does not load) have no example: they are one failed result
 * with RSpec's messages, so the run does not look green.
 */

const ExampleSchema = z.object({
  id: z.string().optional(),
  description: z.string(),
  full_description: z.string(),
  status: z.string(),
  file_path: z.string().optional(),
  line_number: z.int().optional(),
  run_time: z.number().optional(),
  pending_message: z.string().nullable().optional(),
  exception: z
    .object({
      class: z.string().optional(),
      message: z.string().optional(),
      backtrace: z.array(z.string()).nullable().optional(),
    })
    .nullable()
    .optional(),
});
type Example = z.infer<typeof ExampleSchema>;

const ReportSchema = z.object({
  version: z.string().optional(),
  messages: z.array(z.string()).optional(),
  examples: z.array(z.unknown()),
  summary: z
    .object({
      example_count: z.number().optional(),
      failure_count: z.number().optional(),
      pending_count: z.number().optional(),
      errors_outside_of_examples_count: z.number().optional(),
    })
    .optional(),
});

const NOT_RSPEC =
  "not an RSpec JSON report: expected an object with version, examples and summary, as written by `rspec --format json`";

const STATUS: Record<string, RawStatus> = {
  passed: "passed",
  failed: "failed",
  pending: "skipped",
};

/** True for RSpec's JSON: an object that starts with its `version` then `messages`, `seed` or `examples`. */
export function detectRspec(head: string, _fileName: string): boolean {
  return /^\s*\{\s*"version"\s*:\s*"\d+\.\d+[^"]*"\s*,\s*"(messages|seed|examples)"\s*:/.test(
    stripBom(head),
  );
}

function toResult(example: Example): ParsedResult {
  const status = STATUS[example.status] ?? "failed";
  const { description, full_description: full } = example;
  const suite = full.endsWith(description)
    ? full.slice(0, full.length - description.length).trim()
    : "";
  const exception = example.exception ?? undefined;
  const file = example.file_path?.replace(/^\.\//, "");
  return {
    name: description || full || example.id || "(unnamed example)",
    suite_path: suite ? [suite] : [],
    ...(file && { file }),
    status,
    attempt: 0,
    duration_ms: nonNegative(example.run_time === undefined ? undefined : example.run_time * 1000),
    ...(status === "skipped" &&
      example.pending_message && { error_message: example.pending_message }),
    ...(status === "failed" &&
      exception && {
        error_message: stripAnsi(exception.message)?.trim(),
        error_name: exception.class,
        error_stack: exception.backtrace?.join("\n"),
      }),
    ...(file &&
      example.line_number !== undefined && {
        properties: { location: `${file}:${example.line_number}` },
      }),
  };
}

/** Parses an RSpec JSON report, one result per example, as the file streams in. */
export const parseRspec: ResultParser = async function* (file, _files, options = {}) {
  const report = new StreamedJson(file, [["examples"]], NOT_RSPEC);
  const listed = new ListedTotals();
  for await (const { index, value } of report.elements()) {
    const result = toResult(validateReport(file.name, value, ExampleSchema, ["examples", index]));
    listed.add(result.status);
    yield result;
  }
  const root = validateReport(file.name, report.root, ReportSchema);
  const summary = root.summary ?? {};
  const outside = countOf(summary.errors_outside_of_examples_count) ?? 0;
  if (outside > 0 || (root.examples.length === 0 && root.messages?.length)) {
    yield {
      name: "errors outside of examples",
      suite_path: [],
      status: "failed",
      failure_type: "error",
      attempt: 0,
      error_message: `${outside || 1} error(s) occurred outside of examples`,
      ...(root.messages?.length && { error_stack: stripAnsi(root.messages.join("\n").trim()) }),
    };
  }
  const warning = totalsWarning(
    file.name,
    {
      tests: countOf(summary.example_count),
      failed: countOf(summary.failure_count),
      skipped: countOf(summary.pending_count),
    },
    listed,
    "examples",
  );
  if (warning) options.warn?.(warning);
};
