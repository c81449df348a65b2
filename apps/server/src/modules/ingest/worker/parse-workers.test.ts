import { readdir, readFile } from "node:fs/promises";
import { getPriority } from "node:os";
import { Readable } from "node:stream";
import { afterAll, describe, expect, it } from "vitest";
import { AppError } from "../../../errors.js";
import { classifyUpload } from "../parsers/index.js";
import { ParseWorkers } from "./parse-workers.js";
import type { PreparedBatch, PreparedSummary, QueuedResult } from "../pipeline/prepared-batch.js";
import { prepareInThread, ResultPreparer } from "../pipeline/result-preparer.js";
import { KEY_WORDS } from "../encoding/fingerprints.js";
import { RESULT_COLUMNS } from "../pipeline/result-rows.js";
import { MemoryBudget, Spool } from "./spool.js";

const workers = new ParseWorkers(1);
const spools: Spool[] = [];
afterAll(async () => {
  await workers.close();
  for (const spool of spools) await spool.dispose();
});

async function spoolOf(files: Record<string, string>): Promise<Spool> {
  const spool = await Spool.create({
    budget: new MemoryBudget(1024 * 1024),
    maxMemoryFileBytes: 1024,
  });
  spools.push(spool);
  for (const [name, text] of Object.entries(files))
    await spool.add(name, Readable.from([Buffer.from(text)]));
  return spool;
}

function junit(cases: number, failing = new Set<number>()): string {
  const testcases = Array.from({ length: cases }, (_, i) =>
    failing.has(i)
      ? `<testcase classname="suite.Login" name="case ${i}" time="0.5"><failure message="boom ${i}">stack nxl-${i}</failure><system-out>out ${i}</system-out></testcase>`
      : `<testcase classname="suite.Login" name="case ${i}" time="0.25"/>`,
  );
  return `<?xml version="1.0"?><testsuites><testsuite name="login">${testcases.join("")}</testsuite></testsuites>`;
}

const OPTIONS = {
  runId: 7,
  runAt: "2026-03-01T00:00:00.000000Z",
  format: "auto" as const,
  family: "frontend" as const,
  testIdPattern: "TC(\\d+)",
  runFacts: { branch: "main" },
  existing: [] as string[],
  batchSize: 3,
};

/**
 * A batch as comparable data: its COPY rows (ids 1, 2, ..., test and facts ids 0), the
 * test_run_test_ids they hold (RESULT_COLUMNS) and its tests.
 */
function plain(batch: PreparedBatch) {
  const count = batch.rows.rows;
  const ids = Array.from({ length: count }, (_, i) => i + 1);
  const zeros = new Array<number>(count).fill(0);
  const bytes = Buffer.concat([...batch.rows.chunks([ids, zeros, zeros])]);
  const rows = bytes.toString("utf8");
  const lines = rows.split("\n").slice(0, -1);
  const column = RESULT_COLUMNS.indexOf("test_run_test_id");
  const testRunTestIds = lines.map((line) => line.split("\t")[column]!);
  const { tests } = batch;
  const testColumns = Array.from({ length: tests.count }, (_, i) => ({
    identity: tests.identityAt(i),
    explicitId: tests.explicitIdAt(i),
    title: tests.titleAt(i),
    file: tests.fileAt(i),
    key: [...tests.keys.subarray(i * KEY_WORDS, (i + 1) * KEY_WORDS)],
  }));
  return {
    rows,
    ids: testRunTestIds,
    tests: testColumns,
    facts: batch.facts,
    children: batch.children.length,
  };
}

async function inWorker(spool: Spool, options = OPTIONS, pool = workers) {
  const parsed = pool.parse(spool, options);
  const batches = [];
  let recycled = 0;
  for await (const batch of parsed.batches) {
    batches.push(plain(batch));
    // As the writer does once a batch is stored: its buffer goes back to the worker for a later
    // batch, and this thread can no longer read it.
    parsed.recycle(batch);
    if (batch.tests.keys.length === 0) recycled++;
  }
  expect(recycled).toBe(batches.length);
  return { batches, summary: parsed.summary() };
}

async function inThread(spool: Spool, options = OPTIONS) {
  const plan = await classifyUpload(spool, options.format);
  async function* results(): AsyncGenerator<QueuedResult> {
    for await (const report of plan.reports()) {
      for await (const result of report.results) yield { result, files: report.files };
    }
  }
  const preparer = new ResultPreparer({
    ...options,
    testIdPattern: new RegExp(options.testIdPattern, "i"),
    existing: new Set(options.existing),
  });
  const batches = [];
  for await (const batch of prepareInThread(preparer, results())) batches.push(plain(batch));
  return { batches, summary: preparer.done() };
}

/** The nice value of each thread of this process (Linux: field 19 of /proc/self/task/N/stat). */
async function niceOfThreads(): Promise<number[]> {
  const tasks = await readdir("/proc/self/task");
  const stats = await Promise.all(
    tasks.map((task) => readFile(`/proc/self/task/${task}/stat`, "utf8").catch(() => "")),
  );
  return stats.filter(Boolean).map((stat) => Number(stat.split(") ")[1]!.split(" ")[16]));
}

/** The parse threads of this process now: the threads at nice 10 (parse-worker.ts). */
async function workersNow(): Promise<number> {
  return (await niceOfThreads()).filter((n) => n === 10).length;
}

const summaryFields = (summary: PreparedSummary) => ({ ...summary, tally: { ...summary.tally } });

describe("ParseWorkers", () => {
  it("prepares in a worker exactly what preparing in the request's thread makes", async () => {
    const spool = await spoolOf({ "report.xml": junit(8, new Set([2, 5])) });
    const worker = await inWorker(spool);
    const thread = await inThread(spool);
    expect(worker.batches.map((b) => b.ids.length)).toEqual([3, 3, 2]);
    expect(worker.batches).toEqual(thread.batches);
    expect(worker.batches[0]!.rows).toContain("boom 2");
    expect(summaryFields(worker.summary)).toEqual(summaryFields(thread.summary));
    expect(worker.summary.tally).toMatchObject({ total: 8, passed: 6, failed: 2 });
  });

  // Linux only: elsewhere a thread's nice value is the process's, so parse-worker.ts sets none.
  it.runIf(process.platform === "linux")(
    "parses at nice 10, leaving the server's main thread at its own",
    async () => {
      await inWorker(await spoolOf({ "a.xml": junit(5) }));
      // One worker stays when idle (minThreads): it is among this process's threads.
      expect(await niceOfThreads()).toContain(10);
      expect(getPriority()).toBe(0);
    },
  );

  // Linux only, as above: the workers are the threads at nice 10.
  it.runIf(process.platform === "linux")(
    "keeps one worker when idle, ready for the next upload, and stops the others",
    async () => {
      const others = await workersNow();
      const pool = new ParseWorkers(2, 100);
      try {
        const spools = [
          await spoolOf({ "a.xml": junit(3000) }),
          await spoolOf({ "b.xml": junit(3000) }),
        ];
        await Promise.all(spools.map((spool) => inWorker(spool, OPTIONS, pool)));
        // Well past the idle timeout (100 ms): the second thread has gone, the first stays.
        await new Promise((resolve) => setTimeout(resolve, 1500));
        expect(await workersNow()).toBe(others + 1);
      } finally {
        await pool.close();
      }
    },
  );

  it.runIf(process.platform === "linux")(
    "starts its kept worker, its modules loaded, before any upload when started",
    async () => {
      const others = await workersNow();
      const pool = new ParseWorkers(2);
      try {
        pool.start();
        // The worker sets its nice value as its module loads (parse-worker.ts).
        for (let i = 0; i < 100 && (await workersNow()) === others; i++)
          await new Promise((resolve) => setTimeout(resolve, 100));
        expect(await workersNow()).toBe(others + 1);
      } finally {
        await pool.close();
      }
    },
  );

  it("skips the results the run already holds as duplicates", async () => {
    const spool = await spoolOf({ "report.xml": junit(4) });
    const first = await inWorker(spool);
    const again = await inWorker(spool, { ...OPTIONS, existing: first.batches[0]!.ids });
    expect(again.summary.duplicates).toBe(3);
    expect(again.batches.flatMap((b) => b.ids)).toEqual([first.batches[1]!.ids[0]]);
  });

  it("answers a malformed report with its 400, naming the file and the line", async () => {
    const spool = await spoolOf({
      "broken.xml": '<testsuites>\n<testcase name="a">\n</testsuites>',
    });
    const error = await inWorker(spool).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ statusCode: 400, code: "invalid_report" });
    expect((error as AppError).message).toMatch(
      /^broken\.xml \(line 3, column \d+\): malformed XML/,
    );
  });

  it("fails the upload with the cause when its worker dies mid-parse", async () => {
    const dying = new ParseWorkers(1);
    const big = await spoolOf({ "big.xml": junit(3000) });
    const reading = (async () => {
      const rows: number[] = [];
      for await (const batch of dying.parse(big, OPTIONS).batches) {
        rows.push(batch.rows.rows);
        // The pool is shut down under the upload: its thread is terminated.
        if (rows.length === 1) await dying.close();
      }
      return rows;
    })();
    await expect(reading).rejects.toThrow(/the report parser stopped: .*terminat/i);
  });

  it("stops the worker when the reader stops early, and parses the next upload", async () => {
    const big = await spoolOf({ "big.xml": junit(3000) });
    const abandoned = workers.parse(big, OPTIONS).batches[Symbol.asyncIterator]();
    expect((await abandoned.next()).done).toBe(false);
    await abandoned.return?.();
    // One thread: the next upload runs only once the abandoned one has stopped.
    const next = await inWorker(await spoolOf({ "next.xml": junit(5) }));
    expect(next.summary.tally.total).toBe(5);
  });
});
