import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../test/test-database.js";
import { numberArray, textArray } from "./array-literal.js";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

async function roundTrip(literal: string, type: string): Promise<unknown[]> {
  const { rows } = await (database.db.pool as pg.Pool).query<{ v: unknown[] }>(
    `SELECT $1::${type} AS v`,
    [literal],
  );
  return rows[0]!.v;
}

describe("array literals", () => {
  it("give PostgreSQL back every text as it was, quotes, backslashes, nulls and braces included", async () => {
    const plain = [
      'expected "<n>" to equal "<n>"',
      "a\\b",
      'q"\\"',
      "{,}",
      "",
      "NULL",
      null,
      "é ✓",
    ];
    expect(await roundTrip(textArray(plain), "text[]")).toEqual(plain);
  });

  it("keep control characters and lone surrogates' neighbours (JSON escapes them: quoted by hand)", async () => {
    const control = ["line\nbreak", "tab\there", "a\\nb", "bell\u0007", null, 'x"y'];
    expect(await roundTrip(textArray(control), "text[]")).toEqual(control);
  });

  it("give numbers back as bigint and float8", async () => {
    expect(await roundTrip(numberArray([1, 9007199254740991]), "bigint[]")).toEqual([
      "1",
      "9007199254740991",
    ]);
    expect(await roundTrip(numberArray([1764403200123, 0.5]), "float8[]")).toEqual([
      1764403200123, 0.5,
    ]);
    expect(await roundTrip(numberArray([]), "bigint[]")).toEqual([]);
  });
});
