import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../../test/test-database.js";
import { OpenCopy } from "./open-copy.js";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
  await database.db.pool.query("CREATE TABLE copied (n int NOT NULL CHECK (n >= 0), t text)");
});
afterAll(async () => {
  await database.drop();
});

const rows = (...values: string[]) => [Buffer.from(values.map((v) => `${v}\n`).join(""))];

async function inTransaction(fn: (client: pg.PoolClient) => Promise<void>): Promise<void> {
  const client = await database.db.pool.connect();
  try {
    await client.query("BEGIN");
    await fn(client);
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK");
    throw error;
  } finally {
    client.release();
  }
}

const stored = async () =>
  (await database.db.pool.query<{ n: number }>("SELECT n FROM copied ORDER BY n")).rows.map(
    (r) => r.n,
  );

describe("OpenCopy", () => {
  it("sends several writes through one COPY, and opens another after a statement", async () => {
    await database.db.pool.query("TRUNCATE copied");
    await inTransaction(async (client) => {
      const copy = new OpenCopy(client, "COPY copied (n, t) FROM STDIN");
      await copy.write(rows("1\tété", "2\t\\N"));
      await copy.write(rows("3\tx"));
      await copy.end();
      // The connection is free again: a statement, then a new COPY on the next write.
      const { rows: seen } = await client.query("SELECT count(*)::int AS n FROM copied");
      expect(seen[0]).toEqual({ n: 3 });
      await copy.write(rows("4\ty"));
      await copy.end();
      await copy.end(); // nothing open: a no-op
    });
    expect(await stored()).toEqual([1, 2, 3, 4]);
  });

  it("throws PostgreSQL's refusal at end(), sends nothing more, and leaves the ROLLBACK working", async () => {
    await database.db.pool.query("TRUNCATE copied");
    await expect(
      inTransaction(async (client) => {
        const copy = new OpenCopy(client, "COPY copied (n, t) FROM STDIN");
        await copy.write(rows("1\ta", "-5\tbad", "2\tb"));
        // A large write after the refusal: it stops instead of sending into a failed COPY.
        await copy.write(Array.from({ length: 200 }, () => rows("3\tc")[0]!)).catch(() => {});
        await copy.end();
      }),
    ).rejects.toThrow(/copied_n_check/);
    expect(await stored()).toEqual([]);
  });

  it("abort() abandons the open COPY: nothing of it is stored", async () => {
    await database.db.pool.query("TRUNCATE copied");
    await expect(
      inTransaction(async (client) => {
        const copy = new OpenCopy(client, "COPY copied (n, t) FROM STDIN");
        await copy.write(rows("1\ta", "2\tb"));
        await copy.abort();
        throw new Error("the report broke");
      }),
    ).rejects.toThrow("the report broke");
    expect(await stored()).toEqual([]);
  });
});
