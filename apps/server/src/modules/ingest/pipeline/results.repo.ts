import type pg from "pg";

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
