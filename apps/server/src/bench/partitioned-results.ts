import type pg from "pg";

/**
 * Turns `results` into a table partitioned by month (RANGE on start_time, one partition per
 * month named results_pYYYYMM, and a DEFAULT partition for results without a start), with the
 * same indexes (unique ones made plain: a partitioned table's unique index must hold its key).
 * The retention benchmark and tests use it to stand for the partitioned layout of issue 36
 * (another change makes it the real one; retention finds partitions through pg_inherits, so it
 * does not depend on their names or this script).
 */
export async function partitionResultsByMonth(
  pool: pg.Pool,
  from: Date,
  months: number,
): Promise<string[]> {
  const client = await pool.connect();
  const names: string[] = [];
  try {
    await client.query("BEGIN");
    await client.query("SET LOCAL statement_timeout = 0");
    const { rows: indexes } = await client.query<{ def: string }>(
      `SELECT indexdef AS def FROM pg_indexes
       WHERE schemaname = 'public' AND tablename = 'results' AND indexname <> 'results_pkey'`,
    );
    await client.query(`ALTER TABLE results RENAME TO results_plain`);
    await client.query(
      `CREATE TABLE results (LIKE results_plain INCLUDING DEFAULTS INCLUDING IDENTITY INCLUDING CONSTRAINTS)
       PARTITION BY RANGE (start_time)`,
    );
    for (let i = 0; i < months; i++) {
      const start = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth() + i, 1));
      const end = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth() + i + 1, 1));
      const name = `results_p${start.toISOString().slice(0, 7).replace("-", "")}`;
      await client.query(
        `CREATE TABLE ${name} PARTITION OF results FOR VALUES FROM ('${start.toISOString()}') TO ('${end.toISOString()}')`,
      );
      names.push(name);
    }
    await client.query(`CREATE TABLE results_pdefault PARTITION OF results DEFAULT`);
    await client.query(`INSERT INTO results SELECT * FROM results_plain`);
    await client.query(
      `SELECT setval(pg_get_serial_sequence('results', 'id'), (SELECT coalesce(max(id), 0) + 1000 FROM results))`,
    );
    await client.query(`DROP TABLE results_plain CASCADE`);
    for (const { def } of indexes)
      await client.query(
        def
          .replace("CREATE UNIQUE INDEX", "CREATE INDEX")
          .replace(" ON public.results_plain ", " ON results "),
      );
    await client.query("COMMIT");
    return names;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
