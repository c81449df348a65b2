import type pg from "pg";
import { FACT_COLUMNS, factsKey } from "../../../db/results-sql.js";
import { copyData } from "../encoding/copy.js";
import { TEXT_COLUMNS } from "./result-texts.js";

/**
 * `blocks` values of the results' id sequence, each the start of a block of ids (the sequence
 * steps by RESULT_ID_BLOCK, migration 0006). The results themselves are written with COPY
 * (results-writer.ts, result-children.ts): the byte-level path of docs/architecture.md.
 */
export async function reserveResultIdBlocks(
  client: pg.PoolClient,
  blocks: number,
): Promise<number[]> {
  const { rows } = await client.query<{ start: string }>(
    "SELECT nextval(pg_get_serial_sequence('results', 'id')) AS start FROM generate_series(1, $1)",
    [blocks],
  );
  return rows.map((row) => Number(row.start));
}

/**
 * Stores texts of a run's results in its month of result_texts (migration 0216): `chunks` are
 * COPY rows of TEXT_COLUMNS, each text once. Copied into a temporary table (dropped with the
 * transaction), then inserted; a text the month holds already (an earlier run's) is skipped. In
 * key order, so that two uploads adding the same new texts at once take their locks in one order.
 */
export async function storeTexts(
  client: pg.PoolClient,
  runAt: string,
  chunks: readonly Buffer[],
): Promise<void> {
  await client.query(
    "CREATE TEMP TABLE IF NOT EXISTS upload_texts (hash uuid, body text) ON COMMIT DROP",
  );
  await copyData(client, "upload_texts", TEXT_COLUMNS, chunks);
  await client.query(
    `INSERT INTO result_texts (month, hash, body)
     SELECT date_trunc('month', $1::timestamptz, 'UTC'), hash, body FROM upload_texts ORDER BY hash
     ON CONFLICT DO NOTHING`,
    [runAt],
  );
  await client.query("TRUNCATE upload_texts");
}

/** The tuples of $1..$8 (text[] each, FACT_COLUMNS' order), numbered by `i`, each with its key. */
const UPLOAD_FACTS = `SELECT u.*, ${factsKey(FACT_COLUMNS.map((column) => `u.${column}`))} AS key
  FROM unnest(${FACT_COLUMNS.map((_, i) => `$${i + 1}::text[]`).join(", ")})
    WITH ORDINALITY AS u(${FACT_COLUMNS.join(", ")}, i)`;

/**
 * The ids of tuples of run facts in result_facts (migration 0222), in the order given, each
 * stored if it is not yet: one statement for an upload's tuples. A tuple stored already is read
 * (its oldest row: no lock, no write); a new one is inserted. Another upload storing the same new
 * tuple at once is not waited for (result_facts.key is not unique): each stores its own row.
 */
export async function storeFacts(
  client: pg.PoolClient,
  tuples: readonly (string | null)[][],
): Promise<number[]> {
  const columns = FACT_COLUMNS.join(", ");
  const { rows } = await client.query<{ id: number }>(
    `WITH t AS MATERIALIZED (${UPLOAD_FACTS}),
     found AS (
       SELECT DISTINCT ON (f.key) f.key, f.id FROM result_facts f
       WHERE f.key IN (SELECT key FROM t) ORDER BY f.key, f.id
     ),
     added AS (
       INSERT INTO result_facts (key, ${columns})
       SELECT key, ${columns} FROM t WHERE key NOT IN (SELECT key FROM found)
       RETURNING id, key
     )
     SELECT coalesce(found.id, added.id) AS id
     FROM t LEFT JOIN found ON found.key = t.key LEFT JOIN added ON added.key = t.key
     ORDER BY t.i`,
    FACT_COLUMNS.map((_, c) => tuples.map((tuple) => tuple[c] ?? null)),
  );
  return rows.map((row) => row.id);
}
