import type { Compilable } from "kysely";
import pg from "pg";
import type { Db } from "./pool.js";

/*
 * A read of a whole run (100,000 rows) through kysely's execute() holds every row until the last
 * has arrived: ~100 MB of row objects that outlive the young generation, are promoted, and stay
 * in the server's committed heap long after (docs/performance.md, "Session 40: the run view
 * read as it arrives"). Handed over one by one, each row dies young; and the caller's work on a
 * row overlaps PostgreSQL producing the next ones.
 */

/**
 * Runs `query` and calls `onRow` with each row as it arrives, keeping none. Resolves with the
 * number of rows once the last has been handed over; rejects with the query's error, or with
 * the first error `onRow` threw (the rows after it are dropped).
 */
export async function eachRow<Row>(
  db: Db,
  query: Compilable<Row>,
  onRow: (row: Row) => void,
): Promise<number> {
  const { sql, parameters } = query.compile();
  const client = await db.pool.connect();
  let callerFailed = false;
  const handOver = (row: Row) => {
    try {
      onRow(row);
    } catch (error) {
      callerFailed = true;
      throw error;
    }
  };
  try {
    const rows = await eachRowOn(client, sql, [...parameters], handOver);
    client.release();
    return rows;
  } catch (error) {
    // A failed query's connection may be broken (a backend killed): the pool drops it rather
    // than reuse it. The caller's own error leaves it sound.
    client.release(callerFailed ? undefined : (error as Error));
    throw error;
  }
}

/**
 * eachRow on a connection the caller holds (a transaction's), for SQL text with its values.
 * The caller releases the connection.
 */
export async function eachRowOn<Row>(
  client: pg.ClientBase,
  text: string,
  values: readonly unknown[],
  onRow: (row: Row) => void,
): Promise<number> {
  let failed: unknown;
  let rows = 0;
  await new Promise<void>((resolve, reject) => {
    // A Query with a 'row' listener and no callback does not collect rows (pg's _accumulateRows).
    const reading = new pg.Query({ text, values: [...values] });
    reading.on("row", (row: Row) => {
      if (failed !== undefined) return;
      try {
        onRow(row);
        rows++;
      } catch (error) {
        failed = error;
      }
    });
    reading.on("end", () => resolve());
    reading.on("error", reject);
    void client.query(reading);
  });
  if (failed !== undefined) throw failed;
  return rows;
}
