import type { RawStatus } from "@assay/core";
import { z } from "zod";
import { firstJsonLine, lineEvent, linesOf, parseLine } from "./json-lines.js";
import { isoTime } from "./json-report.js";
import type { ParsedResult, ResultParser } from "./types.js";

/*
 * `go test -json` (test2json), as go writes it and as gotestsum's --jsonfile keeps it: one event
 * a line. Every test and subtest is a result of its own (gotestsum counts them so too), in the
 * suite path [package, parent tests...]; a test's output events become its console log, and its
 * failure message the panic or the first `file.go:N:` line. A test run again by `-count=N` is an
 * attempt of the same test. A package that failed to build (or failed outside any test) is a
 * failed result of its own, so the run does not look green. go before 1.21 writes a build
 * failure as a plain `FAIL <pkg> [build failed]` line among the events: such lines are read too.
 */

const EventSchema = z.object({
  Time: z.string().optional(),
  Action: z.string(),
  Package: z.string().optional(),
  ImportPath: z.string().optional(),
  Test: z.string().optional(),
  Elapsed: z.number().optional(),
  Output: z.string().optional(),
  FailedBuild: z.string().optional(),
});
type Event = z.infer<typeof EventSchema>;

const optional = (value: unknown, type: "string" | "number") =>
  value === undefined || typeof value === type;

/** EventSchema's check, by hand: a stream holds hundreds of thousands of events. */
function isEvent(value: unknown): value is Event {
  if (typeof value !== "object" || value === null) return false;
  const e = value as Record<string, unknown>;
  return (
    typeof e.Action === "string" &&
    optional(e.Time, "string") &&
    optional(e.Package, "string") &&
    optional(e.ImportPath, "string") &&
    optional(e.Test, "string") &&
    optional(e.Elapsed, "number") &&
    optional(e.Output, "string") &&
    optional(e.FailedBuild, "string")
  );
}

/** A test's output is kept up to this size (a test that logs in a loop). */
const MAX_OUTPUT_CHARS = 256 * 1024;
const FRAMING = /^\s*(=== (RUN|PAUSE|CONT|NAME)|--- (PASS|FAIL|SKIP):)/;
const BUILD_FAILED = /^FAIL\s+(\S+)\s+\[(build failed|setup failed)\]/;

/** True for a test2json stream: a JSON line with an Action and a Package (or ImportPath). */
export function detectGoTest(head: string, _fileName: string): boolean {
  const line = firstJsonLine(head);
  return (
    line !== undefined &&
    /"Action"\s*:\s*"[a-z-]+"/.test(line) &&
    /"(Package|ImportPath)"\s*:/.test(line)
  );
}

class Output {
  private readonly parts: string[] = [];
  private size = 0;

  add(text: string): void {
    if (this.size >= MAX_OUTPUT_CHARS) return;
    this.parts.push(text);
    this.size += text.length;
  }

  text(): string {
    return this.parts.join("").slice(0, MAX_OUTPUT_CHARS);
  }
}

interface Running {
  started?: string;
  output: Output;
}

/** What one package has running and has finished, dropped when the package ends. */
interface PackageState {
  running: Map<string, Running>;
  /** How often each test has finished: the next run is that attempt (`-count=N`). */
  finished: Map<string, number>;
  output: Output;
  failedTests: boolean;
}

const newPackage = (): PackageState => ({
  running: new Map(),
  finished: new Map(),
  output: new Output(),
  failedTests: false,
});

function failureMessage(log: string): string | undefined {
  const lines = log.split("\n");
  const panic = lines.find((line) => line.startsWith("panic: "));
  if (panic) return panic.replace(/ \[recovered\]$/, "");
  return lines.find((line) => /^\s*\S+\.go:\d+: /.test(line))?.trim();
}

function toResult(
  pkg: string,
  test: string,
  state: PackageState,
  run: Running,
  status: RawStatus,
  event: Event,
): ParsedResult {
  const path = test.split("/");
  const attempt = state.finished.get(test) ?? 0;
  state.finished.set(test, attempt + 1);
  const log = run.output.text().trim();
  const message = status === "failed" ? failureMessage(log) : status === "skipped" ? log : "";
  return {
    name: path.at(-1) || test,
    suite_path: [pkg, ...path.slice(0, -1)],
    status,
    attempt,
    duration_ms: event.Elapsed !== undefined && event.Elapsed > 0 ? event.Elapsed * 1000 : 0,
    start_time: isoTime(run.started),
    end_time: isoTime(event.Time),
    ...(message && { error_message: message }),
    ...(status === "failed" && log && { error_stack: log }),
    ...(log && { console_log: log }),
  };
}

/** A package that failed with no test failing: its build, its TestMain or its setup. */
function packageFailure(pkg: string, output: string, build: boolean): ParsedResult {
  const log = output.trim();
  return {
    name: build ? "[build failed]" : "[package failed]",
    suite_path: [pkg],
    status: "failed",
    failure_type: "error",
    attempt: 0,
    error_message: build ? `${pkg} failed to build` : `${pkg} failed outside its tests`,
    ...(log && { error_stack: log, console_log: log }),
  };
}

const STATUS: Record<string, RawStatus> = { pass: "passed", fail: "failed", skip: "skipped" };

/**
 * Parses a `go test -json` stream line by line: results leave as their tests end, and memory
 * holds the tests running and the names of one package's finished tests. A line that starts
 * with `{` but is not valid JSON is a ReportError naming the line.
 */
export const parseGoTest: ResultParser = async function* (file) {
  const packages = new Map<string, PackageState>();
  // Plain lines (go's build errors when stderr went to the same file) for the next build failure.
  let loose = new Output();
  const stateOf = (pkg: string) => {
    let state = packages.get(pkg);
    if (!state) packages.set(pkg, (state = newPackage()));
    return state;
  };
  for await (const line of linesOf(file)) {
    if (!line.text.trimStart().startsWith("{")) {
      const build = BUILD_FAILED.exec(line.text);
      if (build) {
        yield packageFailure(build[1]!, loose.text(), true);
        loose = new Output();
      } else if (line.text.trim()) loose.add(`${line.text}\n`);
      continue;
    }
    const value = parseLine(file.name, line);
    // The schema explains what is wrong; a well-formed event (nearly all) skips it.
    const event = isEvent(value) ? value : lineEvent(file.name, line, EventSchema, value);
    const pkg = event.Package ?? event.ImportPath?.split(" ")[0];
    if (!pkg) continue;
    if (event.Action === "build-output") {
      loose.add(event.Output ?? "");
      continue;
    }
    const state = stateOf(pkg);
    if (!event.Test) {
      if (event.Action === "output") state.output.add(event.Output ?? "");
      if (!(event.Action in STATUS)) continue;
      // The package ended: a test still running there never finished (a panic, a timeout).
      for (const [test, run] of state.running) {
        run.output.add(state.output.text());
        yield toResult(pkg, test, state, run, "failed", event);
        state.failedTests = true;
      }
      if (event.Action === "fail" && !state.failedTests) {
        const build = event.FailedBuild !== undefined;
        yield packageFailure(pkg, (build ? loose.text() : "") + state.output.text(), build);
        if (build) loose = new Output();
      }
      packages.delete(pkg);
      continue;
    }
    let run = state.running.get(event.Test);
    if (event.Action === "run" || !run) {
      run = { started: event.Time, output: new Output() };
      state.running.set(event.Test, run);
    }
    if (event.Action === "output") {
      const text = event.Output ?? "";
      if (!FRAMING.test(text)) run.output.add(text);
    } else if (event.Action in STATUS) {
      state.running.delete(event.Test);
      const status = STATUS[event.Action]!;
      if (status === "failed") state.failedTests = true;
      yield toResult(pkg, event.Test, state, run, status, event);
    }
  }
  // A stream cut short: tests still running are reported as not finished.
  for (const [pkg, state] of packages) {
    for (const [test, run] of state.running) {
      run.output.add("(the report ends before this test finished)\n");
      yield toResult(pkg, test, state, run, "failed", { Action: "fail" });
    }
  }
};
