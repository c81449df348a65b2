import type { AttachmentInput, ResultInput } from "@assay/core";
import { digestOf, FingerprintTable } from "../encoding/fingerprints.js";
import { addAttachments, caseResults, markRetriedSkip, type CaseRecord } from "./junit-case.js";
import { readOutput, timestampToIso, type Property } from "./junit-fields.js";
import { JunitHeader, ListedTotals } from "./report-totals.js";
import {
  NO_PROPERTIES,
  propertyAttachments,
  withLevel,
  type LevelProperties,
} from "./junit-properties.js";

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
  /** The testcase's suite path (pathKey) and its name there. */
  pathKey: string;
  name: string;
  /** The results; complete (ready to leave) once `finished`. */
  attempts: ResultInput[];
  properties: Property[];
  /** The enclosing suites are known and their fields, properties and output added. */
  finished: boolean;
  emitted: boolean;
}

/** What frames[0..i] say together about a testcase of frames[i], read once per suite. */
interface Chain {
  properties: LevelProperties;
  attachments: AttachmentInput[];
  /** Output of the innermost suite, frames[i]. */
  out?: string | undefined;
  err?: string | undefined;
}

const NO_CHAIN: Chain = { properties: NO_PROPERTIES, attachments: [] };

export interface Frame {
  /** suite_path of a testcase in this suite: the names of the <testsuite>s down to this one. */
  path: string[];
  /** `path` as a key of SuiteStack's attempts, made at the first testcase. */
  pathKey?: string | undefined;
  /** The file and start time of this suite or, failing that, of the nearest enclosing one. */
  file?: string | undefined;
  start?: string | undefined;
  properties: Property[];
  out: string;
  err: string;
  /** This suite's testcases still waiting for it to close. */
  held: Pending[];
  /** The suite's last testcase, to recognise a retry written right after it. */
  previous?: Pending | undefined;
  streaming: boolean;
  /** What the suites down to this one say; dropped when one of them gains properties or output. */
  chain?: Chain | undefined;
  /** The last classname seen here, and its suite level with that level's pathKey. */
  classname?: string | undefined;
  level?: { name: string; pathKey: string } | undefined;
}

/** A suite path as part of an attempts key: JSON escapes the U+0000 that follows it there. */
const pathKeyOf = (path: readonly string[]): string => JSON.stringify(path);

const alphanumeric = (text: string): string => text.toLowerCase().replace(/[^\p{L}\p{N}]/gu, "");

/**
 * The classname as one more suite level when it says something the suites and the name do not:
 * pytest and the JUnit 5 console launcher put the class only there, while Surefire, jest-junit,
 * mocha-junit-reporter and WebdriverIO repeat the suite or the title in it. This part does not
 * depend on the testcase's name, so a suite computes it once per classname.
 */
function classnameLevel(classname: string, path: readonly string[]): string | undefined {
  const level = classname.trim();
  if (!level || PLACEHOLDER_CLASSNAMES.has(level) || path.includes(level)) return undefined;
  const suite = alphanumeric(path[path.length - 1] ?? "");
  return suite && alphanumeric(level).includes(suite) ? undefined : level;
}

export class SuiteStack {
  readonly frames: Frame[] = [];
  /** Testcases in document order, waiting for their suite or for an earlier testcase. */
  private queue: Pending[] = [];
  /** queue[0..head) have left; a moving start, so that each testcase does not shift the array. */
  private head = 0;
  private sharedOutput = SHARED_OUTPUT_BUDGET;
  /**
   * Attempts already given to each test, by the digest of its suite path and name, so that
   * repeated testcases are retries. Kept for the whole file, as fingerprints: as names in Maps
   * it grew by about 100 bytes a testcase.
   */
  private readonly attempts = new FingerprintTable();
  /** The totals the file declares, and the testcases it lists (by how each ended). */
  readonly header = new JunitHeader();
  readonly listed = new ListedTotals();

  /**
   * @param retries same-named testcases of one suite are attempts of one test (the upload's
   *   junit_retries); otherwise each is a test of its own, except a WebdriverIO retried attempt.
   */
  constructor(
    private readonly emit: (result: ResultInput) => void,
    private readonly retries = false,
  ) {}

  get top(): Frame | undefined {
    return this.frames[this.frames.length - 1];
  }

  open(kind: "testsuites" | "testsuite", attrs: Record<string, string>): void {
    const parent = this.top;
    this.header.suite(this.frames.length, attrs);
    const name = kind === "testsuite" ? attrs.name?.trim() : undefined;
    const path = parent ? [...parent.path] : [];
    if (name) path.push(name);
    this.frames.push({
      path,
      file: attrs.file?.trim() || parent?.file,
      start: timestampToIso(attrs.timestamp) || parent?.start,
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
    // The root element has closed: no testcase follows (see FingerprintTable.release).
    if (this.frames.length === 0) this.attempts.release();
  }

  /** A suite-level <property>. */
  addProperty(frame: Frame, property: Property): void {
    frame.properties.push(property);
    this.changed(frame);
  }

  /** Suite-level <system-out> or <system-err> text; several elements join with a line break. */
  addOutput(frame: Frame, key: "out" | "err", text: string): void {
    frame[key] += frame[key] ? `\n${text}` : text;
    this.changed(frame);
  }

  /** A testcase has closed: its attempts join the queue behind the testcases before it. */
  addCase(record: CaseRecord): void {
    const index = this.frames.length - 1;
    const frame = this.frames[index];
    if (!frame) return;
    const { name } = record;
    const level = this.levelOf(frame, record);
    const suitePath = level ? [...frame.path, level.name] : [...frame.path];
    const pathKey = level ? level.pathKey : (frame.pathKey ??= pathKeyOf(frame.path));
    const previous = frame.previous;
    const again = previous?.pathKey === pathKey && previous.name === name && !previous.emitted;
    // WebdriverIO writes a retried attempt as a skipped testcase just before the next attempt.
    const retriedSkip = again && markRetriedSkip(previous.attempts.at(-1));
    const attemptsKey = this.retries ? digestOf(`${pathKey}\u0000${name}`) : undefined;
    const firstAttempt = attemptsKey
      ? (this.attempts.get(attemptsKey) ?? 0)
      : retriedSkip
        ? previous.attempts.at(-1)!.attempt! + 1
        : 0;
    const results = caseResults(record, {
      suitePath,
      firstAttempt,
      file: frame.file,
      start: frame.start,
    });
    if (attemptsKey) this.attempts.set(attemptsKey, firstAttempt + results.attempts.length);
    const final = results.attempts.at(-1);
    if (final) this.listed.add(final.status);
    const pending: Pending = {
      pathKey,
      name,
      attempts: results.attempts,
      properties: results.properties,
      finished: false,
      emitted: false,
    };
    frame.previous = pending;
    this.queue.push(pending);
    if (frame.streaming) this.finish(pending, index);
    else frame.held.push(pending);
    if (this.queue.length - this.head > HOLD_LIMIT) {
      this.frames.forEach((f, i) => {
        this.release(i);
        f.streaming = true;
      });
    }
    this.drain();
  }

  private levelOf(frame: Frame, record: CaseRecord): Frame["level"] {
    const { classname, name } = record;
    if (classname === undefined) return undefined;
    if (frame.classname !== classname) {
      const level = classnameLevel(classname, frame.path);
      frame.classname = classname;
      frame.level = level ? { name: level, pathKey: pathKeyOf([...frame.path, level]) } : undefined;
    }
    const level = frame.level;
    return level && !name.includes(level.name) ? level : undefined;
  }

  /** A suite gained properties or output: what it and the suites inside it say must be re-read. */
  private changed(frame: Frame): void {
    const index = this.frames.lastIndexOf(frame);
    for (let i = Math.max(index, 0); i < this.frames.length; i++) {
      const f = this.frames[i];
      if (f) f.chain = undefined;
    }
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
    const queue = this.queue;
    let head = this.head;
    for (let pending = queue[head]; pending?.finished; pending = queue[++head]) {
      pending.emitted = true;
      for (const result of pending.attempts) this.emit(result);
    }
    if (head === queue.length) {
      this.queue = [];
      this.head = 0;
    } else if (head > HOLD_LIMIT) {
      this.queue = queue.slice(head);
      this.head = 0;
    } else {
      this.head = head;
    }
  }

  /**
   * Adds what the enclosing suites (frames[0..index]) say to a testcase's attempts. The attempts
   * are completed in place: nothing else holds them until they are emitted.
   */
  private finish(pending: Pending, index: number): void {
    const chain = this.chainAt(index);
    // The suites' record itself when the testcase has no properties of its own: their testcases
    // share it (nothing changes a record once made), and its JSON is made once (result-rows.ts).
    const { record: properties, fields } = withLevel(chain.properties, pending.properties);
    const final = pending.attempts[pending.attempts.length - 1];
    if (final) {
      addAttachments(final, chain.attachments);
      const out = final.console_log ? undefined : this.share(chain.out);
      const err = final.console_errors ? undefined : this.share(chain.err);
      if (out) final.console_log = out;
      if (err) final.console_errors = err;
    }
    for (const attempt of pending.attempts) {
      Object.assign(attempt, fields);
      if (properties) attempt.properties = properties;
    }
    pending.finished = true;
  }

  private share(output: string | undefined): string | undefined {
    if (!output || output.length > this.sharedOutput) return undefined;
    this.sharedOutput -= output.length;
    return output;
  }

  /** What frames[0..index] say, from the cache or read now (once per suite and change). */
  private chainAt(index: number): Chain {
    const frame = this.frames[index];
    if (!frame) return NO_CHAIN;
    if (frame.chain) return frame.chain;
    const parent = this.chainAt(index - 1);
    const out = readOutput(frame.out);
    const err = readOutput(frame.err);
    const properties = [...frame.properties, ...out.properties, ...err.properties];
    frame.chain = {
      properties: withLevel(parent.properties, properties),
      attachments: [
        ...parent.attachments,
        ...propertyAttachments(properties),
        ...out.attachments,
        ...err.attachments,
      ],
      out: out.text,
      err: err.text,
    };
    return frame.chain;
  }
}
