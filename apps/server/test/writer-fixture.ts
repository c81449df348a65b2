import type { ResultInput } from "@assay/core";
import type pg from "pg";
import type { UploadFiles } from "../src/modules/ingest/parsers/types.js";
import { ResultsWriter, type QueuedResult } from "../src/modules/ingest/pipeline/results-writer.js";
import { KnownTests } from "../src/modules/ingest/test-ids/test-id-cache.js";
import type { TestDatabase } from "./test-database.js";

/** An upload's files where a result refers to none. */
export const NO_FILES: UploadFiles = { get: () => undefined, all: () => [] };

/** `count` passed results named "<prefix> <n>". */
export function results(count: number, prefix = "test"): QueuedResult[] {
  return Array.from({ length: count }, (_, i) => ({
    result: { name: `${prefix} ${i}`, status: "passed", suite_path: ["suite"] } as ResultInput,
    files: NO_FILES,
  }));
}

// Each run's created_at as ingestion reads it (RunRow.run_at): its results' partition key.
const RUN_AT = `id, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS run_at`;

/**
 * ResultsWriter on a test database, as ingest drives it: a new frontend run in a transaction
 * (committed when `fn` returns), and writers for it.
 */
export function writerFixture(database: () => TestDatabase) {
  const runAts = new Map<number, string>();

  /** A transaction on its own connection with a new run in it, as an upload has. */
  async function openUpload() {
    const client = await database().db.pool.connect();
    await client.query("BEGIN");
    const { rows } = await client.query<{ id: string; run_at: string }>(
      `INSERT INTO runs (test_run_key, family, test_run_name) VALUES (gen_random_uuid(), 'frontend', 'w') RETURNING ${RUN_AT}`,
    );
    runAts.set(Number(rows[0]!.id), rows[0]!.run_at);
    return { client, runId: Number(rows[0]!.id) };
  }

  async function inTransaction<T>(fn: (client: pg.PoolClient, runId: number) => Promise<T>) {
    const { client, runId } = await openUpload();
    try {
      const value = await fn(client, runId);
      await client.query("COMMIT");
      return value;
    } catch (error) {
      await client.query("ROLLBACK");
      throw error;
    } finally {
      client.release();
    }
  }

  function writer(
    client: pg.PoolClient,
    runId: number,
    knownTests = new KnownTests(),
    batchSize = 3,
  ) {
    return new ResultsWriter(client, {
      runId,
      runAt: runAts.get(runId)!,
      family: "frontend",
      testIdPattern: /TC(\d+)/i,
      attachments: {
        reserve: async (files) => {
          if (files.length > 0) throw new Error("no attachments here");
          return [];
        },
        put: () => Promise.reject(new Error("no attachments here")),
        settle: async () => undefined,
        discard: async () => undefined,
      },
      knownTests,
      existing: new Set(),
      batchSize,
    });
  }

  return { openUpload, inTransaction, writer };
}
