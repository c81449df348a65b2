import type { RawStatus } from "@assay/core";
import { z } from "zod";
import { firstJsonLine, lineEvent, linesOf } from "./json-lines.js";
import type { ParsedResult, ResultParser } from "./types.js";

/*
 * Dart's JSON reporter protocol (`dart test --reporter json`, `flutter test --machine`): an event
 * a line. A test is a result when its testDone comes, with the print events as its console log
 * and its error events as the failure; its group names (each the full name, "Cart counts") make
 * the suite path below the test file. Hidden tests are the runner's own (loading a file,
 * setUpAll/tearDownAll) and are left out, unless one failed: a file that does not load is a
 * failed result, so the run does not look green. Lines that are no event (flutter's daemon
 * messages in brackets, plain text) are passed over.
 */

const Metadata = z
  .object({ skip: z.boolean().optional(), skipReason: z.string().nullable().optional() })
  .partial()
  .optional();
const EventSchema = z.object({
  type: z.string(),
  time: z.number().optional(),
  suite: z.object({ id: z.int(), path: z.string().nullable().optional() }).optional(),
  group: z
    .object({
      id: z.int(),
      name: z.string().nullable().optional(),
      parentID: z.int().nullable().optional(),
    })
    .optional(),
  test: z
    .object({
      id: z.int(),
      name: z.string(),
      suiteID: z.int(),
      groupIDs: z.array(z.int()).optional(),
      metadata: Metadata,
      line: z.int().nullable().optional(),
      url: z.string().nullable().optional(),
    })
    .optional(),
  testID: z.int().optional(),
  result: z.string().optional(),
  skipped: z.boolean().optional(),
  hidden: z.boolean().optional(),
  message: z.string().optional(),
  messageType: z.string().optional(),
  error: z.string().optional(),
  stackTrace: z.string().optional(),
  isFailure: z.boolean().optional(),
});
type Event = z.infer<typeof EventSchema>;
type TestInfo = NonNullable<Event["test"]>;

/** A test's prints are kept up to this size. */
const MAX_OUTPUT_CHARS = 256 * 1024;

/** True for the protocol's event stream: its first event has a type and the protocol's fields. */
export function detectDart(head: string, _fileName: string): boolean {
  const line = firstJsonLine(head);
  return (
    line !== undefined &&
    /"type"\s*:\s*"(start|suite|allSuites|testStart|group)"/.test(line) &&
    /"(protocolVersion|runnerVersion|suite|test|group)"\s*:/.test(line)
  );
}

interface Running {
  test: TestInfo;
  started?: number;
  prints: string[];
  printed: number;
  skipMessage?: string;
  errors: { message: string; stack?: string; failure: boolean }[];
}

function toResult(
  running: Running,
  done: Event,
  suites: Map<number, string>,
  groups: Map<number, string>,
): ParsedResult {
  const { test } = running;
  const status: RawStatus = done.skipped
    ? "skipped"
    : done.result === "success"
      ? "passed"
      : "failed";
  // Group names are full ("Cart", "Cart counts"): each level keeps what it adds.
  const path: string[] = [];
  let outer = "";
  for (const id of test.groupIDs ?? []) {
    const name = groups.get(id) ?? "";
    if (!name) continue;
    path.push(name.startsWith(`${outer} `) && outer ? name.slice(outer.length + 1) : name);
    outer = name;
  }
  const name =
    outer && test.name.startsWith(`${outer} `) ? test.name.slice(outer.length + 1) : test.name;
  const first = running.errors[0];
  const skipReason = test.metadata?.skipReason ?? running.skipMessage?.replace(/^Skip: /, "");
  const log = running.prints.join("\n");
  const file = suites.get(test.suiteID);
  return {
    name: name || test.name || `test ${test.id}`,
    suite_path: path,
    ...(file && { file }),
    status,
    attempt: 0,
    testKey: `${test.suiteID}:${test.id}`,
    ...(status === "failed" && first && !first.failure && { failure_type: "error" as const }),
    duration_ms:
      running.started !== undefined && done.time !== undefined
        ? Math.max(0, done.time - running.started)
        : 0,
    ...(status === "failed" && first && { error_message: first.message.trim() }),
    ...(status === "failed" &&
      first && {
        error_stack: running.errors
          .map((e) => [e.message.trim(), e.stack?.trim()].filter(Boolean).join("\n"))
          .join("\n\n"),
      }),
    ...(status === "skipped" && skipReason && { error_message: skipReason }),
    ...(log && { console_log: log }),
    ...(test.line != null && file && { properties: { location: `${file}:${test.line}` } }),
  };
}

/** Parses the Dart test JSON event stream line by line; results leave as tests end. */
export const parseDart: ResultParser = async function* (file) {
  const suites = new Map<number, string>();
  const groups = new Map<number, string>();
  const running = new Map<number, Running>();
  for await (const line of linesOf(file)) {
    if (!line.text.trimStart().startsWith("{")) continue;
    const event = lineEvent(file.name, line, EventSchema);
    if (event.type === "suite" && event.suite) {
      suites.set(event.suite.id, event.suite.path ?? "");
    } else if (event.type === "group" && event.group) {
      groups.set(event.group.id, event.group.name ?? "");
    } else if (event.type === "testStart" && event.test) {
      running.set(event.test.id, {
        test: event.test,
        started: event.time,
        prints: [],
        printed: 0,
        errors: [],
      });
    } else if (event.testID !== undefined) {
      const test = running.get(event.testID);
      if (!test) continue;
      if (event.type === "print") {
        const message = event.message ?? "";
        if (event.messageType === "skip") test.skipMessage = message;
        else if (test.printed < MAX_OUTPUT_CHARS) {
          test.prints.push(message);
          test.printed += message.length;
        }
      } else if (event.type === "error") {
        test.errors.push({
          message: event.error ?? "",
          stack: event.stackTrace,
          failure: event.isFailure === true,
        });
      } else if (event.type === "testDone") {
        running.delete(event.testID);
        // The runner's own tests: shown only when they failed (a file that did not load).
        if (event.hidden && (event.result === "success" || event.skipped)) continue;
        yield toResult(test, event, suites, groups);
      }
    }
  }
};
