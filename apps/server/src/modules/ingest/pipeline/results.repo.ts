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
 * stored if it is not yet: one statement for an upload's tuples. A tuple stored already is only
 * read (no lock, no write); a new one is inserted, in key order. A tuple another upload stored
 * after this statement's snapshot is neither inserted (ON CONFLICT) nor seen: read again then.
 */
export async function storeFacts(
  client: pg.PoolClient,
  tuples: readonly (string | null)[][],
): Promise<number[]> {
  const columns = FACT_COLUMNS.join(", ");
  const values = FACT_COLUMNS.map((_, c) => tuples.map((tuple) => tuple[c] ?? null));
  for (let attempt = 1; ; attempt++) {
    const { rows } = await client.query<{ id: number | null }>(
      `WITH t AS MATERIALIZED (${UPLOAD_FACTS}),
       added AS (
         INSERT INTO result_facts (key, ${columns})
         SELECT key, ${columns} FROM t
         WHERE NOT EXISTS (SELECT FROM result_facts f WHERE f.key = t.key)
         ORDER BY key
         ON CONFLICT (key) DO NOTHING
         RETURNING id, key
       )
       SELECT coalesce(added.id, f.id) AS id
       FROM t LEFT JOIN added ON added.key = t.key LEFT JOIN result_facts f ON f.key = t.key
       ORDER BY t.i`,
      values,
    );
    if (rows.every((row) => row.id !== null)) return rows.map((row) => row.id!);
    // The second statement sees what the first waited for (a new snapshot); a third never runs.
    if (attempt === 3) throw new Error("result_facts: a tuple neither stored nor found");
  }
}
