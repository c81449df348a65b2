import type { RawStatus } from "@assay/core";
import { z } from "zod";
import { nonNegative, stripAnsi, stripBom, validateReport } from "./json-report.js";
import { StreamedJson } from "./json-stream.js";
import { countOf, totalsWarning, type Totals } from "./report-totals.js";
import { ReportError, type ParsedResult, type ReportFile, type ResultParser } from "./types.js";

/*
 * Mocha's JSON reporter (`--reporter json`): `tests` lists every test that ran, and `passes`,
 * `failures` and `pending` say how each ended. A failing hook is listed only in `failures`.
 * Mocha reports only the final attempt of a retried test (`currentRetry` tells which it was):
 * the earlier attempts are not in the report and are not made up here. So every entry is a test
 * of its own, also one whose full title another has (each result's testKey is its own).
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
/** The report around its lists, which are read one test at a time (each list stands as []). */
const ReportSchema = z.object({
  stats: z.object({}).optional(),
  tests: z.array(z.unknown()),
  passes: z.array(z.unknown()).optional(),
  failures: z.array(z.unknown()).optional(),
  pending: z.array(z.unknown()).optional(),
});
const NOT_MOCHA =
  "not a Mocha JSON report: expected an object with stats, tests, passes, failures and pending, as written by `--reporter json`";
/** The lists, in the order of a Count's fields. */
const LISTS = ["tests", "failures", "pending", "passes"] as const;

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
export const parseMocha: ResultParser = async function* (file, _files, options = {}) {
  // Mocha writes `tests` before the lists that say how each ended, so a first reading counts
  // every list and a second yields the results: memory holds counts, not the report.
  const { counts, hooks, declared, inLists } = await countLists(file);
  const warning = totalsWarning(file.name, declared, inLists, "tests");
  if (warning) options.warn?.(warning);
  let entries = 0;
  for await (const test of listed(file, "tests")) {
    const count = counts.get(key(test))!;
    const status: RawStatus = take(count, "failures")
      ? "failed"
      : take(count, "pending")
        ? "skipped"
        : take(count, "passes")
          ? "passed"
          : guessStatus(test);
    yield toResult(test, status, entries++);
  }
  if (hooks === 0) return;
  // A failure no test took never was a test: a failing hook ('"before each" hook for "x"').
  for await (const failure of listed(file, "failures")) {
    if (take(counts.get(key(failure))!, "hooks")) yield toResult(failure, "failed", entries++);
  }
};

async function* listed(file: ReportFile, list: (typeof LISTS)[number]): AsyncGenerator<Test> {
  for await (const { index, value } of new StreamedJson(file, [[list]], NOT_MOCHA).elements()) {
    yield validateReport(file.name, value, TestSchema, [list, index]);
  }
}

/** How often a test (by file and full title) is in each list; repeated titles match one for one. */
interface Count {
  tests: number;
  failures: number;
  pending: number;
  passes: number;
  /** Failures left over once every test in `tests` has taken its own. */
  hooks: number;
}

/** What `stats` says, and what the lists hold (tests, passes, failures, pending). */
interface ListTotals {
  declared: Totals;
  inLists: Required<Totals>;
}

async function countLists(
  file: ReportFile,
): Promise<{ counts: Map<string, Count>; hooks: number } & ListTotals> {
  const counts = new Map<string, Count>();
  const inLists = { tests: 0, passed: 0, failed: 0, skipped: 0 };
  const tallied = {
    tests: "tests",
    passes: "passed",
    failures: "failed",
    pending: "skipped",
  } as const;
  const report = new StreamedJson(
    file,
    LISTS.map((list) => [list]),
    NOT_MOCHA,
  );
  for await (const { list, index, value } of report.elements()) {
    const test = validateReport(file.name, value, TestSchema, [LISTS[list]!, index]);
    let count = counts.get(key(test));
    if (!count) {
      count = { tests: 0, failures: 0, pending: 0, passes: 0, hooks: 0 };
      counts.set(key(test), count);
    }
    count[LISTS[list]!]++;
    inLists[tallied[LISTS[list]!]]++;
  }
  if (!Array.isArray((report.root as { tests?: unknown }).tests)) {
    throw new ReportError(file.name, NOT_MOCHA);
  }
  validateReport(file.name, report.root, ReportSchema);
  let hooks = 0;
  for (const count of counts.values()) {
    count.hooks = Math.max(0, count.failures - count.tests);
    hooks += count.hooks;
  }
  const stats = (report.root as { stats?: Record<string, unknown> }).stats ?? {};
  const declared = {
    tests: countOf(stats.tests),
    passed: countOf(stats.passes),
    failed: countOf(stats.failures),
    skipped: countOf(stats.pending),
  };
  return { counts, hooks, declared, inLists };
}

function take(count: Count, list: Exclude<keyof Count, "tests">): boolean {
  if (count[list] === 0) return false;
  count[list]--;
  return true;
}

function key(test: Test): string {
  return `${test.file ?? ""}\u0000${test.fullTitle}`;
}

/** A test in none of the lists (a reporter that trimmed them): an error means it failed. */
function guessStatus(test: Test): RawStatus {
  if (test.err?.message !== undefined || test.err?.stack !== undefined) return "failed";
  return test.duration === undefined ? "skipped" : "passed";
}

function toResult(test: Test, status: RawStatus, entry: number): ParsedResult {
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
    testKey: `entry ${entry}`,
    duration_ms: nonNegative(test.duration),
    error_message: failed ? stripAnsi(test.err?.message) : undefined,
    error_name: failed ? test.err?.name : undefined,
    error_stack: failed ? stripAnsi(test.err?.stack) : undefined,
  };
}
