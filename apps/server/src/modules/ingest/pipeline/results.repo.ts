import type pg from "pg";
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
