import { createReadStream, createWriteStream } from "node:fs";
import { rm } from "node:fs/promises";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { pipeline } from "node:stream/promises";
import pg from "pg";
import { from as copyFrom, to as copyTo } from "pg-copy-streams";
import { RESULT_COLUMNS } from "../modules/ingest/pipeline/result-rows.js";
import { median, rate } from "./output.js";

/*
 * The physical limit of ingestion: the rows an upload stored, COPYed straight back into a scratch
 * copy of `results` (same columns, checks and indexes, no foreign keys) in one COPY and one
 * transaction, on the same database. Two variants say what the indexes and the foreign keys cost.
 */

export interface CopyRates {
  rows: number;
  /** rows/s into a copy of results with its indexes (median of 3). */
  withIndexes: number;
  /** rows/s with the indexes and results' two foreign keys (runs, tests). */
  withForeignKeys: number;
  /** rows/s into a table with no index at all. */
  withoutIndexes: number;
}

const COLUMNS = RESULT_COLUMNS.join(", ");

async function timeCopy(client: pg.Client, table: string, file: string): Promise<number> {
  const started = performance.now();
  await client.query("BEGIN");
  await pipeline(
    createReadStream(file),
    client.query(copyFrom(`COPY ${table} (${COLUMNS}) FROM STDIN`)),
  );
  await client.query("COMMIT");
  const elapsed = performance.now() - started;
  await client.query(`TRUNCATE ${table}`);
  return elapsed;
}

/** Measures the COPY rates for the rows of run `runKey` in the database at `url`. */
export async function measureCopy(
  url: string,
  runKey: string,
  scratchDir: string,
): Promise<CopyRates> {
  const client = new pg.Client({ connectionString: url, application_name: "assay-bench" });
  client.on("error", () => undefined);
  await client.connect();
  const file = path.join(scratchDir, "rows.copy");
  try {
    const { rows } = await client.query<{ id: string; n: string }>(
      `SELECT r.id, (SELECT count(*) FROM results WHERE run_id = r.id) AS n
       FROM runs r WHERE test_run_key = $1`,
      [runKey],
    );
    const run = rows[0];
    if (!run) throw new Error(`run ${runKey} not found`);
    await pipeline(
      client.query(
        copyTo(
          `COPY (SELECT ${COLUMNS} FROM results WHERE run_id = ${Number(run.id)} ORDER BY id) TO STDOUT`,
        ),
      ),
      createWriteStream(file),
    );
    await client.query(`
      DROP TABLE IF EXISTS bench_copy_indexed, bench_copy_fk, bench_copy_plain;
      CREATE TABLE bench_copy_indexed (LIKE results INCLUDING ALL);
      CREATE TABLE bench_copy_fk (LIKE results INCLUDING ALL);
      ALTER TABLE bench_copy_fk ADD FOREIGN KEY (run_id) REFERENCES runs (id),
                                ADD FOREIGN KEY (test_id) REFERENCES tests (id);
      CREATE TABLE bench_copy_plain (LIKE results INCLUDING DEFAULTS);`);
    const n = Number(run.n);
    const indexed: number[] = [];
    for (let i = 0; i < 3; i++) indexed.push(await timeCopy(client, "bench_copy_indexed", file));
    return {
      rows: n,
      withIndexes: rate(n, median(indexed)),
      withForeignKeys: rate(n, await timeCopy(client, "bench_copy_fk", file)),
      withoutIndexes: rate(n, await timeCopy(client, "bench_copy_plain", file)),
    };
  } finally {
    await client
      .query("DROP TABLE IF EXISTS bench_copy_indexed, bench_copy_fk, bench_copy_plain")
      .catch(() => undefined);
    await client.end();
    await rm(file, { force: true });
  }
}
