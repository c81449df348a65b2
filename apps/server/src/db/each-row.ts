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
  let failed: unknown;
  let rows = 0;
  try {
    await new Promise<void>((resolve, reject) => {
      // A Query with a 'row' listener and no callback does not collect rows (pg's _accumulateRows).
      const reading = new pg.Query({ text: sql, values: [...parameters] });
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
      client.query(reading);
    });
  } catch (error) {
    // The connection may be broken (a backend killed): the pool drops it rather than reuse it.
    client.release(error as Error);
    throw error;
  }
  client.release();
  if (failed !== undefined) throw failed;
  return rows;
}
