import type { ResultInput } from "@assay/core";
import { addAttachments, caseResults, markRetriedSkip, type CaseRecord } from "./junit-case.js";
import { readOutput, timestampToIso, type Property } from "./junit-fields.js";
import { propertyAttachments, propertyFields, propertyRecord } from "./junit-properties.js";

/*
 * The open suites and the results waiting on them. A testcase becomes its results when it
 * closes; they then wait for their suite to close, because suite-level <system-out>, <system-err>
 * and properties often come after the testcases (jest-junit, Ant) and apply to them, and leave in
 * document order. At most HOLD_LIMIT testcases wait at any time: past that, they are all let go
 * and the open suites stream theirs, so memory stays flat on huge reports (and, in such suites,
 * only what precedes a testcase reaches it). Suite output goes to each result without output of
 * its own, as Jenkins shows it; SHARED_OUTPUT_BUDGET bounds those copies, so a small file cannot
 * turn into gigabytes of stored output.
 */

export const HOLD_LIMIT = 1000;
/** Characters of suite-level output copied into results, per file. */
export const SHARED_OUTPUT_BUDGET = 16 * 1024 * 1024;

/** node:test writes classname="test" for every test (`classname ?? 'test'`): it names nothing. */
const PLACEHOLDER_CLASSNAMES = new Set(["test"]);

interface Pending {
  key: string;
  attempts: ResultInput[];
  properties: Property[];
  /** Set once the enclosing suites are known: the results, ready to leave. */
  done?: ResultInput[];
  emitted?: boolean;
}

interface SuiteOutput {
  properties: Property[];
  attachments: NonNullable<ResultInput["attachments"]>;
  out?: string;
  err?: string;
}

export interface Frame {
  /** A <testsuite>'s name, a level of suite_path; <testsuites> has none. */
  name?: string;
  file?: string;
  start?: string;
  properties: Property[];
  out: string;
  err: string;
  /** This suite's testcases still waiting for it to close. */
  held: Pending[];
  /** The suite's last testcase, to recognise a retry written right after it. */
  previous?: Pending;
  streaming: boolean;
  /** `properties`, `out` and `err` read once; dropped when one of them grows. */
  derived?: SuiteOutput;
}

const alphanumeric = (text: string): string => text.toLowerCase().replace(/[^\p{L}\p{N}]/gu, "");

/**
 * The classname as one more suite level when it says something the suites and the name do not:
 * pytest and the JUnit 5 console launcher put the class only there, while Surefire, jest-junit,
 * mocha-junit-reporter and WebdriverIO repeat the suite or the title in it.
 */
function classnameLevel(classname: string | undefined, name: string, path: string[]) {
  const level = classname?.trim();
  if (!level || PLACEHOLDER_CLASSNAMES.has(level) || path.includes(level)) return undefined;
  if (name.includes(level)) return undefined;
  const suite = alphanumeric(path[path.length - 1] ?? "");
  return suite && alphanumeric(level).includes(suite) ? undefined : level;
}

export class SuiteStack {
  readonly frames: Frame[] = [];
  /** Testcases in document order, waiting for their suite or for an earlier testcase. */
  private readonly queue: Pending[] = [];
  private sharedOutput = SHARED_OUTPUT_BUDGET;
  /** Attempts already given to each suite path + name, so repeated testcases are retries. */
  private readonly attemptsByTest = new Map<string, number>();

  constructor(private readonly emit: (result: ResultInput) => void) {}

  get top(): Frame | undefined {
    return this.frames[this.frames.length - 1];
  }

  open(kind: "testsuites" | "testsuite", attrs: Record<string, string>): void {
    const name = kind === "testsuite" ? attrs.name?.trim() : undefined;
    const file = attrs.file?.trim();
    const start = timestampToIso(attrs.timestamp);
    this.frames.push({
      ...(name ? { name } : {}),
      ...(file ? { file } : {}),
      ...(start ? { start } : {}),
      properties: [],
      out: "",
      err: "",
      held: [],
      streaming: false,
    });
  }

  close(): void {
    this.release(this.frames.length - 1);
    this.frames.pop();
  }

  /** A testcase has closed: its attempts join the queue behind the testcases before it. */
  addCase(record: CaseRecord): void {
    const suitePath = this.frames.flatMap((f) => (f.name ? [f.name] : []));
    const level = classnameLevel(record.classname, record.name, suitePath);
    if (level) suitePath.push(level);
    const file = this.frames.findLast((f) => f.file)?.file;
    const start = this.frames.findLast((f) => f.start)?.start;
    const key = JSON.stringify([...suitePath, record.name]);
    const firstAttempt = this.attemptsByTest.get(key) ?? 0;
    const results = caseResults(record, {
      suitePath,
      firstAttempt,
      ...(file ? { file } : {}),
      ...(start ? { start } : {}),
    });
    this.attemptsByTest.set(key, firstAttempt + results.attempts.length);
    const pending: Pending = { key, ...results };
    const index = this.frames.length - 1;
    const frame = this.frames[index];
    if (!frame) return;
    const previous = frame.previous;
    if (previous?.key === key && !previous.emitted) {
      for (const list of [previous.attempts, previous.done ?? []]) markRetriedSkip(list.at(-1));
    }
    frame.previous = pending;
    this.queue.push(pending);
    if (frame.streaming) this.finish(pending, index);
    else frame.held.push(pending);
    if (this.queue.length > HOLD_LIMIT) {
      this.frames.forEach((f, i) => {
        this.release(i);
        f.streaming = true;
      });
    }
    this.drain();
  }

  /** Completes the testcases waiting for frames[index], the suite now closing (or let go). */
  private release(index: number): void {
    const frame = this.frames[index];
    if (!frame) return;
    for (const pending of frame.held) this.finish(pending, index);
    frame.held = [];
    this.drain();
  }

  private drain(): void {
    let ready = 0;
    while (this.queue[ready]?.done) ready++;
    for (const pending of this.queue.splice(0, ready)) {
      pending.emitted = true;
      for (const result of pending.done ?? []) this.emit(result);
    }
  }

  /** Adds what the enclosing suites (frames[0..index]) say to a testcase's attempts. */
  private finish(pending: Pending, index: number): void {
    const chain = this.frames.slice(0, index + 1).map((f) => this.suiteOutput(f));
    const levels = [...chain.map((s) => s.properties), pending.properties];
    const properties = propertyRecord(levels);
    const fields = propertyFields(levels.flat());
    const innermost = chain[chain.length - 1];
    const final = pending.attempts[pending.attempts.length - 1];
    if (final) {
      addAttachments(
        final,
        chain.flatMap((s) => s.attachments),
      );
      const out = final.console_log ? undefined : this.share(innermost?.out);
      const err = final.console_errors ? undefined : this.share(innermost?.err);
      if (out) final.console_log = out;
      if (err) final.console_errors = err;
    }
    pending.done = pending.attempts.map((attempt) => ({
      ...attempt,
      ...fields,
      ...(properties ? { properties } : {}),
    }));
  }

  private share(output: string | undefined): string | undefined {
    if (!output || output.length > this.sharedOutput) return undefined;
    this.sharedOutput -= output.length;
    return output;
  }

  private suiteOutput(frame: Frame): SuiteOutput {
    if (frame.derived) return frame.derived;
    const out = readOutput(frame.out);
    const err = readOutput(frame.err);
    const properties = [...frame.properties, ...out.properties, ...err.properties];
    frame.derived = {
      properties,
      attachments: [...propertyAttachments(properties), ...out.attachments, ...err.attachments],
      ...(out.text ? { out: out.text } : {}),
      ...(err.text ? { err: err.text } : {}),
    };
    return frame.derived;
  }
}
