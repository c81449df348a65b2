import type { RawStatus, ResultInput } from "@assay/core";
import { z } from "zod";
import { readJson } from "./json.js";
import { nonNegative, stripAnsi, stripBom, validateReport } from "./json-report.js";
import { ReportError, type ResultParser } from "./types.js";

/*
 * Mocha's JSON reporter (`--reporter json`): `tests` lists every test that ran, and `passes`,
 * `failures` and `pending` say how each ended. A failing hook is listed only in `failures`.
 * Mocha reports only the final attempt of a retried test (`currentRetry` tells which it was):
 * the earlier attempts are not in the report and are not made up here.
 */

const ErrSchema = z.object({
  message: z.string().optional(),
  stack: z.string().optional(),
  name: z.string().optional(),
});
const TestSchema = z.object({
  title: z.string(),
  fullTitle: z.string(),
  file: z.string().optional(),
  duration: z.number().optional(),
  currentRetry: z.int().nonnegative().optional(),
  err: ErrSchema.optional(),
});
const ReportSchema = z.object({
  stats: z.object({}).optional(),
  tests: z.array(TestSchema),
  passes: z.array(TestSchema).optional(),
  failures: z.array(TestSchema).optional(),
  pending: z.array(TestSchema).optional(),
});

type Test = z.infer<typeof TestSchema>;

/**
 * True for Mocha's JSON report: an object that starts with `stats` (whose counts include
 * `passes`) followed by a `tests` array. mochawesome also starts with such stats but has
 * `results` instead of `tests`.
 */
export function detectMocha(head: string, _fileName: string): boolean {
  const text = stripBom(head);
  return (
    /^\s*\{\s*"stats"\s*:\s*\{[^{}]*"passes"\s*:\s*\d/.test(text) &&
    /"(tests|passes|failures)"\s*:\s*\[/.test(text)
  );
}

/**
 * Parses a Mocha JSON report: one result per test in `tests`, its status from the list that
 * holds it, plus one failed result per hook failure (found only in `failures`). Mocha gives no
 * suite tree, so the suite path is the full title minus the test's own title, as one entry.
 */
export const parseMocha: ResultParser = async function* (file) {
  const json = await readJson(file);
  const tests = (json as { tests?: unknown } | null)?.tests;
  if (json === null || typeof json !== "object" || !Array.isArray(tests)) {
    throw new ReportError(
      file.name,
      "not a Mocha JSON report: expected an object with stats, tests, passes, failures and pending, as written by `--reporter json`",
    );
  }
  const report = validateReport(file.name, json, ReportSchema);
  const failures = new Multiset(report.failures ?? []);
  const pending = new Multiset(report.pending ?? []);
  const passes = new Multiset(report.passes ?? []);
  for (const test of report.tests) {
    const status: RawStatus = failures.take(test)
      ? "failed"
      : pending.take(test)
        ? "skipped"
        : passes.take(test)
          ? "passed"
          : guessStatus(test);
    yield toResult(test, status);
  }
  // What is left in failures never was a test: a failing hook ('"before each" hook for "x"').
  for (const failure of report.failures ?? []) {
    if (failures.take(failure)) yield toResult(failure, "failed");
  }
};

/** Entries by file and full title, counted, so repeated titles match one for one. */
class Multiset {
  private readonly counts = new Map<string, number>();

  constructor(tests: Test[]) {
    for (const test of tests) this.counts.set(key(test), (this.counts.get(key(test)) ?? 0) + 1);
  }

  take(test: Test): boolean {
    const count = this.counts.get(key(test)) ?? 0;
    if (count === 0) return false;
    this.counts.set(key(test), count - 1);
    return true;
  }
}

function key(test: Test): string {
  return `${test.file ?? ""}\u0000${test.fullTitle}`;
}

/** A test in none of the lists (a reporter that trimmed them): an error means it failed. */
function guessStatus(test: Test): RawStatus {
  if (test.err?.message !== undefined || test.err?.stack !== undefined) return "failed";
  return test.duration === undefined ? "skipped" : "passed";
}

function toResult(test: Test, status: RawStatus): ResultInput {
  const title = test.title || test.fullTitle || "(untitled test)";
  const suite = test.fullTitle.endsWith(test.title)
    ? test.fullTitle.slice(0, test.fullTitle.length - test.title.length).trim()
    : "";
  const failed = status === "failed";
  return {
    name: title,
    suite_path: suite ? [suite] : [],
    file: test.file,
    status,
    attempt: test.currentRetry ?? 0,
    duration_ms: nonNegative(test.duration),
    error_message: failed ? stripAnsi(test.err?.message) : undefined,
    error_name: failed ? test.err?.name : undefined,
    error_stack: failed ? stripAnsi(test.err?.stack) : undefined,
  };
}
