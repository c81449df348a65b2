import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../test/test-database.js";
import { createDb, type Db } from "./pool.js";
import { runPrepared } from "./prepared.js";

let database: TestDatabase;
/** One connection: what it has prepared is what the next call finds. */
let db: Db;

beforeAll(async () => {
  database = await createTestDatabase();
  db = createDb(database.url, 1);
});

afterAll(async () => {
  await db?.close();
  await database.drop();
});

const statements = async () =>
  (
    await db.pool.query<{ name: string; generic_plans: string; custom_plans: string }>(
      "SELECT name, generic_plans, custom_plans FROM pg_prepared_statements",
    )
  ).rows;

describe("runPrepared", () => {
  it("answers as the query does, and plans it once a connection after its first calls", async () => {
    const byTest = (testId: number) =>
      db.kysely
        .selectFrom("tests")
        .select(["id", "title"])
        .where("id", "=", testId)
        .where("family", "=", sql.lit("frontend"))
        .limit(sql.lit(5));
    await db.pool.query(
      "INSERT INTO tests (id, family, title) VALUES (7001, 'frontend', 'seven'), (7002, 'backend', 'two')",
    );
    expect(await runPrepared(db, byTest(7001))).toEqual(await byTest(7001).execute());
    expect(await runPrepared(db, byTest(7002))).toEqual([]);
    for (let i = 0; i < 8; i++) await runPrepared(db, byTest(7001));
    const prepared = await statements();
    // One statement for every call (its SQL is the same), no longer planned per call
    expect(prepared).toHaveLength(1);
    expect(prepared[0]!.name).toMatch(/^assay_[0-9a-f]{24}$/);
    expect(Number(prepared[0]!.generic_plans)).toBeGreaterThan(0);
    // Another text is another statement; the first is still answered
    await runPrepared(db, byTest(7001).limit(sql.lit(6)));
    expect(await statements()).toHaveLength(2);
    expect(await runPrepared(db, byTest(7001))).toEqual([{ id: "7001", title: "seven" }]);
  });
});
