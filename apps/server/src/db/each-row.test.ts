import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../test/test-database.js";
import { eachRow } from "./each-row.js";
import { createDb, type Db } from "./pool.js";

let database: TestDatabase;
/** One connection: a client eachRow kept would leave the next query waiting for ever. */
let db: Db;

beforeAll(async () => {
  database = await createTestDatabase();
  db = createDb(database.url, 1);
});

afterAll(async () => {
  await db?.close();
  await database.drop();
});

const numbers = (to: number) =>
  db.kysely
    .selectFrom(sql<{ g: number }>`generate_series(1, ${to}::int)`.as("g"))
    .select([sql<number>`g.g::float8`.as("n"), sql<string>`'row ' || g.g`.as("label")])
    .orderBy("n");

describe("eachRow", () => {
  it("hands over every row in the query's order, with its columns typed as pg reads them", async () => {
    const seen: { n: number; label: string }[] = [];
    const count = await eachRow(db, numbers(2500), (row) => seen.push(row));
    expect(count).toBe(2500);
    expect(seen.map((row) => row.n)).toEqual(Array.from({ length: 2500 }, (_, i) => i + 1));
    expect(seen[41]).toEqual({ n: 42, label: "row 42" });
  });

  it("rejects with the first error the caller threw, drops the rest and frees the connection", async () => {
    const seen: number[] = [];
    const reading = eachRow(db, numbers(100), (row) => {
      seen.push(row.n);
      if (row.n === 10) throw new Error("bad row 10");
    });
    await expect(reading).rejects.toThrow("bad row 10");
    expect(seen).toEqual(Array.from({ length: 10 }, (_, i) => i + 1));
    expect(await eachRow(db, numbers(3), () => undefined)).toBe(3);
  });

  it("rejects with the database's error and frees the connection", async () => {
    const broken = db.kysely.selectFrom("tests").select(sql<number>`1 / (id - id)`.as("x"));
    await db.pool.query("INSERT INTO tests (id, family, title) VALUES (9001, 'frontend', 'x')");
    await expect(eachRow(db, broken, () => undefined)).rejects.toThrow("division by zero");
    expect(await eachRow(db, numbers(3), () => undefined)).toBe(3);
  });
});
