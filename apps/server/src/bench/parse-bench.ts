import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { Packing } from "../modules/ingest/encoding/packing.js";
import { classifyUpload } from "../modules/ingest/parsers/index.js";
import type { QueuedResult } from "../modules/ingest/pipeline/prepared-batch.js";
import { prepareInThread, ResultPreparer } from "../modules/ingest/pipeline/result-preparer.js";
import { FileSet, reportFile } from "../modules/ingest/worker/parse-task.js";
import { writeJunitReport } from "./junit-gen.js";
import { median } from "./output.js";
import { out } from "./scratch-database.js";
import type { LocalFile } from "./upload.js";

/*
 * The parse thread's share of a 100k-test JUnit upload (issue 36), without the server or the
 * database: the report parsed, its results prepared and their batches packed as the parse worker
 * does (worker/parse-worker.ts), in this thread. A known-tests upload waits on this work, which
 * the database and the request's thread do not need as long; its CPU per round is the figure.
 * Seven rounds in one process; the first is cold. The same report as write-bench's first.
 * Usage: npm run bench:parse [-- TESTS]
 */

const TESTS = Number(process.argv[2] ?? 100_000);
const ROUNDS = 7;

async function parseOnce(file: LocalFile): Promise<number> {
  const upload = new FileSet([reportFile(file)]);
  const preparer = new ResultPreparer({
    runId: 7,
    runAt: "2026-11-30T00:00:00.000Z",
    family: "frontend",
    testIdPattern: /TC\d+/i,
    runFacts: {},
    existing: new Set(),
  });
  let results = 0;
  try {
    const plan = await classifyUpload(upload, "auto");
    async function* queued(): AsyncGenerator<QueuedResult> {
      for await (const report of plan.reports({ junitRetries: false, warn: () => undefined })) {
        for await (const result of report.results) yield { result, files: report.files };
      }
    }
    for await (const batch of prepareInThread(preparer, queued())) {
      // Packed as the worker posts it: part of the worker's work.
      const packing = new Packing(
        new ArrayBuffer(batch.rows.packedSize + batch.texts.packedSize + batch.tests.packedSize),
      );
      batch.rows.packed(packing);
      batch.texts.packed(packing);
      batch.tests.packed(packing);
      results += batch.rows.rows;
      preparer.recycle(batch);
    }
    preparer.done();
  } finally {
    preparer.release();
  }
  return results;
}

const dir = await mkdtemp(path.join(tmpdir(), "assay-parse-bench-"));
try {
  const report = await writeJunitReport(path.join(dir, "junit.xml"), TESTS, 2);
  const cpu: number[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    const results = await parseOnce(report);
    const used = process.cpuUsage(cpuBefore);
    cpu.push((used.user + used.system) / 1000);
    out(
      `round ${round}: ${results} results, ${(performance.now() - started).toFixed(0)} ms, CPU ${cpu.at(-1)!.toFixed(0)} ms`,
    );
  }
  out(`median CPU of rounds 2-${ROUNDS}: ${median(cpu.slice(1)).toFixed(0)} ms`);
} finally {
  await rm(dir, { recursive: true, force: true });
}
