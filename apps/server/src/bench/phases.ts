import { createReadStream } from "node:fs";
import { performance } from "node:perf_hooks";
import type { ResultInput } from "@assay/core";
import pg from "pg";
import { finalizeRun } from "../modules/ingest/finalize.repo.js";
import { parseJunit } from "../modules/ingest/parsers/junit.js";
import type { ReportFile, UploadFiles } from "../modules/ingest/parsers/types.js";
import { derivedTestRunTestId, encodeResultTail } from "../modules/ingest/pipeline/result-rows.js";
import {
  emptyBatchFacts,
  factValues,
  UploadFacts,
} from "../modules/ingest/pipeline/result-facts.js";
import { ResultTexts } from "../modules/ingest/pipeline/result-texts.js";
import { RowBuffer } from "../modules/ingest/encoding/row-buffer.js";
import { ResultsWriter, type QueuedResult } from "../modules/ingest/pipeline/results-writer.js";
import { KnownTests } from "../modules/ingest/test-ids/test-id-cache.js";
import { explicitTestId, identityOf } from "../modules/ingest/test-ids/test-identity.js";
import type { LocalFile } from "./upload.js";

/*
 * The ingest pipeline of one JUnit file, timed phase by phase inside the bench process with the
 * server's own modules: reading the bytes, SAX parsing, the JavaScript that turns results into
 * COPY rows, then the real ResultsWriter and finalizeRun on the database in a transaction that is
 * rolled back. The writer's database calls are timed by statement.
 */

export interface PhaseTimes {
  results: number;
  readMs: number;
  parseMs: number;
  /** Parse, plus test identities (sha256), row building and COPY text encoding. */
  parseAndEncodeMs: number;
  /** ResultsWriter.write for the whole file: parse and JS work overlapping the database calls. */
  writerMs: number;
  /** Database calls made by the writer, by kind (wall time; parsing runs meanwhile). */
  database: [string, number][];
  finalizeMs: number;
}

function reportFile(file: LocalFile): ReportFile {
  return { name: file.name, size: file.size, open: () => createReadStream(file.path) };
}

function filesOf(file: ReportFile): UploadFiles {
  return { get: (name) => (name === file.name ? file : undefined), all: () => [file] };
}

async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const value = await fn();
  return [value, performance.now() - started];
}

function kindOf(sql: string): string {
  if (sql.startsWith("COPY")) return sql.split(" ").slice(0, 2).join(" ");
  if (/\b(FROM|INTO) tests\b/.test(sql)) return "resolve test ids (tests)";
  if (sql.includes("nextval(pg_get_serial_sequence")) return "allocate result ids (nextval)";
  return "other statements";
}

/**
 * Wraps client.query so that every statement's time (COPY: until its stream finishes) adds up by
 * `kind` of its SQL; returns what puts client.query back.
 */
export function timeQueries(
  client: pg.PoolClient,
  totals: Map<string, number>,
  kind: (sql: string) => string = kindOf,
): () => void {
  const original = client.query;
  const bound = original.bind(client) as (...args: unknown[]) => unknown;
  const add = (kind: string, started: number) =>
    totals.set(kind, (totals.get(kind) ?? 0) + performance.now() - started);
  client.query = ((...args: unknown[]) => {
    const first = args[0] as { text?: string; on?: unknown } | string;
    const sql = typeof first === "string" ? first : (first?.text ?? "");
    const started = performance.now();
    const result = bound(...args);
    if (result instanceof Promise) {
      return result.finally(() => add(kind(sql.trim()), started));
    }
    const stream = result as NodeJS.EventEmitter;
    stream.once("finish", () => add(kind(sql.trim()), started));
    return result;
  }) as typeof client.query;
  return () => {
    client.query = original;
  };
}

async function* queued(results: AsyncIterable<ResultInput>): AsyncGenerator<QueuedResult> {
  for await (const result of results) yield { result, files: NO_FILES };
}

const NO_FILES: UploadFiles = { get: () => undefined, all: () => [] };

async function parseAll(file: ReportFile, each: (r: ResultInput) => void): Promise<number> {
  let n = 0;
  for await (const result of parseJunit(file, filesOf(file))) {
    each(result);
    n++;
  }
  return n;
}

/** Times each phase of ingesting `local` into the database at `url` (nothing is kept). */
export async function measurePhases(
  url: string,
  local: LocalFile,
  testIdPattern: string,
): Promise<PhaseTimes> {
  const file = reportFile(local);
  const pattern = new RegExp(testIdPattern, "i");
  // One untimed pass, so that the timed ones run JIT-compiled code, as a warm server does.
  await parseAll(file, () => undefined);
  const [, readMs] = await timed(async () => {
    for await (const chunk of file.open()) void chunk;
  });
  const [results, parseMs] = await timed(() => parseAll(file, () => undefined));
  // Rows encoded into a batch's buffer and cut into COPY chunks, as ResultsWriter does.
  const rows = new RowBuffer();
  const textRows = new RowBuffer();
  const resultTexts = new ResultTexts();
  const texts = { ref: (text: string | null) => resultTexts.ref(text, textRows) };
  const ids = Array.from({ length: 2000 }, (_, i) => 1_000_000 + i);
  const uploadFacts = new UploadFacts();
  let facts = emptyBatchFacts();
  const flush = () => {
    for (const chunk of rows.chunks([ids, ids, ids])) void chunk;
    rows.clear();
    textRows.clear();
    facts = emptyBatchFacts();
  };
  const [, parseAndEncodeMs] = await timed(async () => {
    await parseAll(file, (r) => {
      explicitTestId({ tags: r.tags ?? [], texts: [r.title, r.name] }, pattern);
      const identity = identityOf("frontend", r.file, r.suite_path ?? [], r.name);
      const testRunTestId = derivedTestRunTestId(identity, r.attempt ?? 0);
      rows.append(
        encodeResultTail({ runId: 1, runAt: new Date().toISOString(), testRunTestId }, r, texts),
      );
      uploadFacts.add(factValues(r, {}), facts);
      if (rows.rows === 2000) flush();
    });
    flush();
  });

  const pool = new pg.Pool({ connectionString: url, max: 1, application_name: "assay-bench" });
  // A connection lost while idle must fail the bench with cleanup, not crash it.
  pool.on("error", () => undefined);
  const client = await pool.connect();
  const totals = new Map<string, number>();
  try {
    await client.query("BEGIN");
    const { rows } = await client.query<{ id: string; run_at: string }>(
      `INSERT INTO runs (test_run_key, family, test_run_name) VALUES ($1, 'frontend', 'bench phases')
       RETURNING id, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS run_at`,
      [`bench-phases-${Date.now()}`],
    );
    const runId = Number(rows[0]!.id);
    const runAt = rows[0]!.run_at;
    const restore = timeQueries(client, totals);
    const writer = new ResultsWriter(client, {
      runId,
      runAt,
      family: "frontend",
      testIdPattern: pattern,
      // The generated JUnit has no attachments: nothing is reserved, put or settled.
      attachments: {
        reserve: async (files) => files.map(() => "none"),
        put: async () => ({ size: 0 }),
        settle: async () => undefined,
        discard: async () => undefined,
      },
      // A cold catalogue cache, as after a restart: every batch looks its tests up.
      knownTests: new KnownTests(),
      existing: new Set(),
    });
    const [, writerMs] = await timed(() => writer.write(queued(parseJunit(file, filesOf(file)))));
    restore();
    const [, finalizeMs] = await timed(() =>
      finalizeRun(client, runId, {
        rank: writer.ranking(),
        tally: writer.tally,
      }),
    );
    return {
      results,
      readMs,
      parseMs,
      parseAndEncodeMs,
      writerMs,
      database: [...totals.entries()].sort((a, b) => b[1] - a[1]),
      finalizeMs,
    };
  } finally {
    await client.query("ROLLBACK").catch(() => undefined);
    client.release();
    await pool.end();
  }
}
