import path from "node:path";
import { writeJunitReport } from "../bench/junit-gen.js";
import { BENCH_TOKEN } from "../bench/server-process.js";
import { uploadReports, type LocalFile } from "../bench/upload.js";
import type { StoredRun } from "./load-check.repo.js";

/** The executor the uploaders' runs carry: how the check finds them among the demo's. */
export const UPLOADER_EXECUTOR = "assay-load-uploader";
/** One upload may take this long under load before it counts as an error. */
const UPLOAD_TIMEOUT_MS = 5 * 60_000;

/** The counts an upload's run must hold, from the same file's first (warm-up) upload. */
export interface Expected {
  total: number;
  passed: number;
  failed: number;
  pending: number;
  flaky: number;
  /** Rows in `results` (a flaky test's attempts each have one). */
  results: number;
}

export interface Uploader {
  index: number;
  file: LocalFile;
  expected?: Expected;
  /** The run of its first upload, made before the scenario. */
  firstKey?: string;
}

/** One upload's outcome during the scenario. */
export interface UploadRecord {
  uploader: number;
  status: number;
  ms: number;
  /** The run it was stored in, from a 201. */
  key?: string;
  counts?: Omit<Expected, "results">;
  error?: string;
}

interface IngestAnswer {
  test_run_key: string;
  counts: Omit<Expected, "results">;
  inserted: number;
}

/** A report of `tests` testcases per uploader, each with tests of its own (another CI job). */
export async function makeUploaders(
  dir: string,
  count: number,
  tests: number,
): Promise<Uploader[]> {
  const uploaders: Uploader[] = [];
  for (let index = 0; index < count; index++) {
    const file = await writeJunitReport(
      path.join(dir, `uploader-${index}.xml`),
      tests,
      7_000 + index,
    );
    uploaders.push({ index, file });
  }
  return uploaders;
}

function fieldsOf(uploader: Uploader, n: number): Record<string, string> {
  return {
    format: "junit",
    family: "frontend",
    executor: UPLOADER_EXECUTOR,
    nora_site: "load.example.com",
    test_run_name: `load upload ${uploader.index}.${n}`,
  };
}

async function uploadOnce(baseUrl: string, uploader: Uploader, n: number): Promise<UploadRecord> {
  try {
    const answer = await uploadReports(
      baseUrl,
      BENCH_TOKEN,
      [uploader.file],
      fieldsOf(uploader, n),
      UPLOAD_TIMEOUT_MS,
    );
    const record: UploadRecord = { uploader: uploader.index, status: answer.status, ms: answer.ms };
    if (answer.status === 201) {
      const body = answer.body as IngestAnswer;
      record.key = body.test_run_key;
      record.counts = body.counts;
    } else {
      record.error = JSON.stringify(answer.body).slice(0, 300);
    }
    return record;
  } catch (error) {
    return { uploader: uploader.index, status: 0, ms: 0, error: (error as Error).message };
  }
}

/**
 * Uploads each file once before the scenario: its tests enter the catalogue (the scenario's
 * uploads are then daily runs of known tests), and its answer and stored rows are what every
 * later upload of the same file must give.
 */
export async function firstUploads(
  baseUrl: string,
  uploaders: readonly Uploader[],
  stored: () => Promise<StoredRun[]>,
): Promise<void> {
  for (const uploader of uploaders) {
    const record = await uploadOnce(baseUrl, uploader, 0);
    if (record.status !== 201 || !record.key || !record.counts) {
      throw new Error(
        `uploader ${uploader.index}'s first upload failed: ${record.status} ${record.error}`,
      );
    }
    const run = (await stored()).find((r) => r.test_run_key === record.key);
    if (!run) throw new Error(`uploader ${uploader.index}'s first upload is not stored`);
    uploader.expected = { ...record.counts, results: run.results };
    uploader.firstKey = record.key;
  }
}

/**
 * Each uploader posts its report again and again until `endAt`, one upload at a time (a CI job
 * that finishes, then the next); the upload in flight at `endAt` is awaited, so every upload ends
 * answered or failed.
 */
export async function runUploaders(
  baseUrl: string,
  uploaders: readonly Uploader[],
  endAt: number,
): Promise<UploadRecord[]> {
  const records: UploadRecord[] = [];
  await Promise.all(
    uploaders.map(async (uploader) => {
      for (let n = 1; Date.now() < endAt; n++) records.push(await uploadOnce(baseUrl, uploader, n));
    }),
  );
  return records;
}

export interface UploadCheck {
  uploads: number;
  acknowledged: number;
  failed: number;
  /** Acknowledged uploads whose run is missing or whose counts or rows differ. */
  lost: string[];
  /** Runs of the uploaders' executor that no acknowledged upload accounts for. */
  extra: string[];
  medianMs: number;
}

/**
 * Every acknowledged upload is stored once with exactly its file's counts and rows, the answer
 * said those counts, and there is no other run of the uploaders (a partial one, say).
 */
export function checkUploads(
  uploaders: readonly Uploader[],
  records: readonly UploadRecord[],
  runs: readonly StoredRun[],
): UploadCheck {
  const byKey = new Map(runs.map((r) => [r.test_run_key, r]));
  const acknowledged = records.filter((r) => r.status === 201 && r.key);
  const lost: string[] = [];
  for (const record of acknowledged) {
    const expected = uploaders[record.uploader]!.expected!;
    const run = byKey.get(record.key!);
    const counts = (c: Omit<Expected, "results">) =>
      [c.total, c.passed, c.failed, c.pending, c.flaky].join("/");
    if (!run) lost.push(`${record.key}: not stored`);
    else if (run.results !== expected.results)
      lost.push(`${record.key}: ${run.results} results stored, ${expected.results} expected`);
    else if (counts(run) !== counts(expected) || counts(record.counts!) !== counts(expected))
      lost.push(
        `${record.key}: counts ${counts(run)} stored, ${counts(record.counts!)} answered, ${counts(expected)} expected`,
      );
  }
  const accounted = new Set([
    ...acknowledged.map((r) => r.key!),
    ...uploaders.map((u) => u.firstKey),
  ]);
  const extra = runs.filter((r) => !accounted.has(r.test_run_key)).map((r) => r.test_run_key);
  const times = acknowledged.map((r) => r.ms).sort((a, b) => a - b);
  return {
    uploads: records.length,
    acknowledged: acknowledged.length,
    failed: records.length - acknowledged.length,
    lost,
    extra,
    medianMs: times[Math.floor(times.length / 2)] ?? Number.NaN,
  };
}
