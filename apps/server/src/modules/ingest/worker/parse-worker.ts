import { setPriority } from "node:os";
import type { MessagePort } from "node:worker_threads";
import { Packing } from "../encoding/packing.js";
import { classifyUpload } from "../parsers/index.js";
import {
  findFile,
  normalizedReference,
  readBytes,
  reportErrorToAppError,
  Warnings,
  type ParseOptions,
} from "../parsers/types.js";
import {
  errorData,
  FileSet,
  reportFile,
  type AttachedFile,
  type BatchData,
  type ChildData,
  type ParseTask,
  type WorkerMessage,
} from "./parse-task.js";
import type { PreparedBatch, PreparedChild, QueuedResult } from "../pipeline/prepared-batch.js";
import { ResultPreparer } from "../pipeline/result-preparer.js";

/*
 * The parse worker: reads an upload's report files, prepares its results (result-preparer.ts)
 * and posts them to the ingest route in batches, which writes them to PostgreSQL meanwhile.
 * Parsing and encoding are most of an upload's JavaScript work; here they run on a core of
 * their own, and their garbage stays out of the server's heap. Run by a piscina pool
 * (parse-workers.ts).
 */

/**
 * The nice value of a parse thread: parsing takes the cores the server's main thread (the
 * readers) and PostgreSQL leave idle, and gives them back at once when those want them. On a
 * machine of two cores, eight uploads parsing at normal priority made every read wait seconds
 * (docs/performance.md, "Load"); uploads still go as fast when nothing else runs.
 */
const PARSE_NICE = 10;

// On Linux a thread has its own nice value, and setpriority() of "0" is the calling thread; on
// other systems it would be the whole server's, so they are left as they are.
if (process.platform === "linux") setPriority(PARSE_NICE);

/** Batches posted and not yet taken by the route: enough to keep it busy, and no more. */
const BATCHES_AHEAD = 2;

/** Buffers given back kept for reuse: as many as can be out at once (posted, or in the writer). */
const MAX_SPARES = BATCHES_AHEAD + 3;

/**
 * Buffers the route gave back once it had written their batches, packed again for the next
 * batches (see Packing): a few buffers serve the whole upload.
 */
class SpareBuffers {
  private readonly spares: ArrayBuffer[] = [];

  give(buffer: ArrayBuffer): void {
    if (this.spares.length < MAX_SPARES) this.spares.push(buffer);
  }

  /** A buffer of at least `bytes`: a spare, or a new one with room for larger batches. */
  take(bytes: number): ArrayBuffer {
    const fits = this.spares.findIndex((buffer) => buffer.byteLength >= bytes);
    if (fits >= 0) return this.spares.splice(fits, 1)[0]!;
    return new ArrayBuffer(Math.ceil(bytes * 1.25));
  }
}

/**
 * Counts the batches the route has taken ("more"), keeps the buffers it gives back, and notices
 * when it has gone away.
 */
class Credit {
  private available = BATCHES_AHEAD;
  private closed = false;
  private wake: (() => void) | undefined;
  readonly spares = new SpareBuffers();

  constructor(port: MessagePort) {
    port.on("message", (message: "more" | ArrayBuffer) => {
      if (message !== "more") return this.spares.give(message);
      this.available++;
      this.wake?.();
    });
    port.on("close", () => {
      this.closed = true;
      this.wake?.();
    });
  }

  /** Waits until a batch may be posted; false once the route stopped listening. */
  async take(): Promise<boolean> {
    while (this.available === 0 && !this.closed) {
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
    this.available--;
    return !this.closed;
  }
}

async function* resultsOf(
  task: ParseTask,
  files: FileSet,
  options: ParseOptions,
): AsyncGenerator<QueuedResult> {
  const plan = await classifyUpload(files, task.format);
  for await (const report of plan.reports(options)) {
    for await (const result of report.results) yield { result, files: report.files };
  }
}

/** A child's attachment references, resolved here: the route cannot open a zip's entries. */
async function childData(child: PreparedChild, upload: FileSet): Promise<ChildData> {
  const attached: [string, AttachedFile][] = [];
  for (const attachment of child.result.attachments ?? []) {
    const file = attachment.path === undefined ? undefined : findFile(child.files, attachment.path);
    if (!file) continue;
    const inUpload = upload.get(file.name) === file;
    attached.push([
      normalizedReference(attachment.path!),
      inUpload ? { upload: file.name } : { bytes: new Uint8Array(await readBytes(file)) },
    ]);
  }
  return { index: child.index, result: child.result, attached };
}

async function post(
  port: MessagePort,
  preparer: ResultPreparer,
  batch: PreparedBatch,
  upload: FileSet,
  spares: SpareBuffers,
): Promise<void> {
  const packing = new Packing(
    spares.take(batch.rows.packedSize + batch.texts.packedSize + batch.tests.packedSize),
  );
  const data: BatchData = {
    rows: batch.rows.packed(packing),
    texts: batch.texts.packed(packing),
    tests: batch.tests.packed(packing),
    facts: batch.facts,
    children: await Promise.all(batch.children.map((child) => childData(child, upload))),
    outcomes: batch.outcomes,
  };
  preparer.recycle(batch);
  const message: WorkerMessage = { kind: "batch", batch: data };
  port.postMessage(message, [packing.buffer]);
}

export default async function parseUpload(task: ParseTask): Promise<void> {
  const { port } = task;
  const credit = new Credit(port);
  let message: WorkerMessage;
  let preparer: ResultPreparer | undefined;
  try {
    const upload = new FileSet(task.files.map(reportFile));
    preparer = new ResultPreparer({
      runId: task.runId,
      runAt: task.runAt,
      family: task.family,
      testIdPattern: new RegExp(task.testIdPattern, "i"),
      runFacts: task.runFacts,
      existing: task.existing,
      ...(task.batchSize !== undefined && { batchSize: task.batchSize }),
    });
    const warnings = new Warnings();
    const options = { junitRetries: task.junitRetries === true, warn: warnings.add };
    for await (const queued of resultsOf(task, upload, options)) {
      const full = preparer.add(queued);
      if (!full) continue;
      if (!(await credit.take())) return;
      await post(port, preparer, full, upload, credit.spares);
    }
    const last = preparer.flush();
    if (last) {
      if (!(await credit.take())) return;
      await post(port, preparer, last, upload, credit.spares);
    }
    message = { kind: "done", summary: preparer.done(), warnings: warnings.all() };
  } catch (error) {
    message = { kind: "failed", error: errorData(reportErrorToAppError(error)) };
  } finally {
    preparer?.release();
  }
  port.postMessage(message);
  port.close();
}
