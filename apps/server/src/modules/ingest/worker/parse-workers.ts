import { on } from "node:events";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { MessageChannel, type MessagePort } from "node:worker_threads";
import { Piscina } from "piscina";
import { BatchTests } from "../test-ids/batch-tests.js";
import { RunTally } from "../pipeline/run-tally.js";
import {
  errorFromData,
  fileData,
  FileSet,
  reportFile,
  type BatchData,
  type ParseTask,
  type SummaryData,
  type WorkerMessage,
} from "./parse-task.js";
import type { ReportFile } from "../parsers/types.js";
import type { PreparedBatch, PreparedSummary } from "../pipeline/prepared-batch.js";
import { RowBuffer } from "../encoding/row-buffer.js";
import type { Spool } from "./spool.js";

/**
 * A worker beyond the first left idle this long exits, giving back the memory its last upload
 * left in its heap. The first stays (minThreads): an upload parsed by a new worker cost 1.1-1.7 s
 * more than by a worker that had parsed before (a 100k known-tests upload, 3.7-4.7 s against
 * 2.4-3.2 s on the same machine, docs/performance.md "Session 41"), and most uploads come after
 * a pause longer than any idle timeout (the nightly run). The price is that worker's heap while
 * nothing is uploaded (~60 MB after a 100k upload).
 */
const IDLE_TIMEOUT_MS = 10_000;

/**
 * The worker's compiled entry (parse-worker-entry.cts, CommonJS: see there). Under Vitest this
 * file runs from src/ while the worker runs the build in dist/ (`npm test` builds first).
 */
function workerFile(): string {
  const here = fileURLToPath(import.meta.url);
  const sep = path.sep;
  const built = here.endsWith(".ts") ? here.replace(`${sep}src${sep}`, `${sep}dist${sep}`) : here;
  return path.join(path.dirname(built), "parse-worker-entry.cjs");
}

/** An upload being parsed in a worker: its batches, then what preparing them found. */
export interface ParsedUpload {
  batches: AsyncIterable<PreparedBatch>;
  /** Gives a written batch's buffer back to the worker, to pack a later batch into. */
  recycle(batch: PreparedBatch): void;
  /** Available once `batches` is exhausted. */
  summary(): PreparedSummary;
  /** What the reports said that was stored otherwise than written (see Warn), once all is read. */
  warnings(): string[];
}

/**
 * The threads that parse uploads (parse-worker.ts), one upload each at a time: at most one per
 * core, one of them kept, the others started on demand and stopped when idle.
 */
export class ParseWorkers {
  /** Made by `start` (the server listens) or the first upload. */
  private pool: Piscina | undefined;
  private closed = false;

  constructor(
    private readonly maxThreads: number,
    private readonly idleTimeoutMs = IDLE_TIMEOUT_MS,
  ) {}

  /**
   * Starts the kept worker now rather than with the first upload, which would otherwise wait for
   * the thread and its modules to load (0.45-0.7 s on two busy cores, docs/performance.md
   * "Session 42"): the first upload after a start is most often the nightly run.
   */
  start(): void {
    this.threads();
  }

  private threads(): Piscina {
    if (this.closed) throw new Error("the parse workers are closed: the server is stopping");
    this.pool ??= new Piscina({
      filename: workerFile(),
      minThreads: 1,
      maxThreads: this.maxThreads,
      idleTimeout: this.idleTimeoutMs,
    });
    return this.pool;
  }

  /**
   * Starts parsing `spool`. Batches come as the worker makes them, a few ahead of what has been
   * taken; stopping the iteration early (the database failed) stops the worker too.
   */
  parse(spool: Spool, options: Omit<ParseTask, "port" | "files">): ParsedUpload {
    const channel = new MessageChannel();
    const task: ParseTask = { ...options, port: channel.port2, files: spool.all().map(fileData) };
    const crashed = new AbortController();
    const run = this.threads().run(task, { transferList: [channel.port2] });
    let failure: unknown;
    run.catch((error: unknown) => {
      failure = error;
      crashed.abort();
    });
    let summary: PreparedSummary | undefined;
    let warnings: string[] = [];
    const port = channel.port1;
    // Each batch's bytes are views of one buffer the worker transferred (see Packing).
    const buffers = new WeakMap<PreparedBatch, ArrayBuffer>();
    let open = true;
    return {
      batches: receive(port, spool, crashed.signal, () => failure, {
        received: (batch, buffer) => buffers.set(batch, buffer),
        done: (s, w) => {
          summary = s;
          warnings = w;
        },
        closed: () => (open = false),
      }),
      recycle: (batch) => {
        const buffer = buffers.get(batch);
        buffers.delete(batch);
        if (open && buffer) port.postMessage(buffer, [buffer]);
      },
      summary: () => {
        if (!summary) throw new Error("the upload's batches were not all read");
        return summary;
      },
      warnings: () => warnings,
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.pool?.destroy();
  }
}

interface Receiver {
  received(batch: PreparedBatch, buffer: ArrayBuffer): void;
  done(summary: PreparedSummary, warnings: string[]): void;
  closed(): void;
}

async function* receive(
  port: MessagePort,
  spool: Spool,
  crashed: AbortSignal,
  failure: () => unknown,
  receiver: Receiver,
): AsyncGenerator<PreparedBatch> {
  try {
    for await (const [data] of on(port, "message", { signal: crashed })) {
      const message = data as WorkerMessage;
      if (message.kind === "failed") throw errorFromData(message.error);
      if (message.kind === "done") {
        return receiver.done(summaryOf(message.summary), message.warnings);
      }
      const batch = batchOf(message.batch, spool);
      receiver.received(batch, message.batch.rows.bytes.buffer);
      yield batch;
      // Taken: the worker may post one more.
      port.postMessage("more");
    }
  } catch (error) {
    if (crashed.aborted) throw new Error(`the report parser stopped: ${String(failure())}`);
    throw error;
  } finally {
    receiver.closed();
    port.close();
  }
}

function summaryOf(data: SummaryData): PreparedSummary {
  return { duplicates: data.duplicates, retried: data.retried, tally: RunTally.from(data.tally) };
}

function batchOf(data: BatchData, spool: Spool): PreparedBatch {
  return {
    rows: RowBuffer.unpacked(data.rows),
    texts: RowBuffer.unpacked(data.texts),
    tests: BatchTests.unpacked(data.tests),
    facts: data.facts,
    children: data.children.map(({ index, result, attached }) => {
      const files = attached.map(([reference, file]): [string, ReportFile | undefined] => [
        reference,
        "upload" in file
          ? spool.get(file.upload)
          : reportFile({ name: reference, size: file.bytes.byteLength, content: file.bytes }),
      ]);
      const found = files.flatMap(([name, file]) => (file ? [{ ...file, name }] : []));
      return { index, result, files: new FileSet(found) };
    }),
    outcomes: data.outcomes,
  };
}
