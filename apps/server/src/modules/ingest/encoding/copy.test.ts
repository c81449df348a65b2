import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../../test/test-database.js";
import { copyRows, encodeCopyValue, json } from "./copy.js";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.drop();
});

describe("encodeCopyValue", () => {
  it("escapes the characters COPY's text format gives meaning to", () => {
    expect(encodeCopyValue("a\tb\nc\\d\re")).toBe("a\\tb\\nc\\\\d\\re");
    expect(encodeCopyValue(null)).toBe("\\N");
    expect(encodeCopyValue(Number.NaN)).toBe("\\N");
    expect(encodeCopyValue(true)).toBe("t");
  });
});

describe("copyRows", () => {
  it("writes a JSON array to a jsonb column as an array, not a text[] literal", async () => {
    const client = await database.db.pool.connect();
    try {
      await client.query("CREATE TEMP TABLE steps (j jsonb)");
      await copyRows(
        client,
        "steps",
        ["j"],
        [[json([{ action: "Given x", passed: true }])], [json([])]],
      );
      const { rows } = await client.query("SELECT j FROM steps");
      expect(rows.map((r) => r.j)).toEqual([[{ action: "Given x", passed: true }], []]);
    } finally {
      client.release();
    }
  });

  it("round-trips awkward text, arrays, JSON and NULs through PostgreSQL", async () => {
    const client = await database.db.pool.connect();
    try {
      await client.query(
        "CREATE TEMP TABLE t (s text, a text[], j jsonb, n double precision, b boolean, d timestamptz)",
      );
      const awkward = 'tab\there, "quotes", back\\slash, new\nline, \\N, emoji 🚀, nul\u0000';
      await copyRows(
        client,
        "t",
        ["s", "a", "j", "n", "b", "d"],
        [
          [
            awkward,
            ["@smoke", 'q"uote', "back\\slash", "com,ma", "{brace}"],
            json({ k: "v\t\n", nul: "a\u0000b", list: [1, 2] }),
            1.5,
            true,
            new Date("2026-01-02T03:04:05.678Z"),
          ],
          [null, [], json(null), null, null, null],
        ],
      );
      const { rows } = await client.query("SELECT * FROM t ORDER BY s NULLS LAST");
      expect(rows[0]).toEqual({
        s: awkward.replace("\u0000", "\uFFFD"),
        a: ["@smoke", 'q"uote', "back\\slash", "com,ma", "{brace}"],
        j: { k: "v\t\n", nul: "a\uFFFDb", list: [1, 2] },
        n: 1.5,
        b: true,
        d: new Date("2026-01-02T03:04:05.678Z"),
      });
      expect(rows[1]).toEqual({ s: null, a: [], j: null, n: null, b: null, d: null });
    } finally {
      client.release();
    }
  });

  it("sends rows across many chunks whole, a row larger than a chunk included", async () => {
    const client = await database.db.pool.connect();
    try {
      await client.query("CREATE TEMP TABLE many (i int, s text)");
      // Multi-byte text of varying length, and one row of 300 KB in the middle.
      const text = (i: number) =>
        i === 1500 ? "é".repeat(150_000) : `row ${i} ${"ü😀".repeat(i % 50)}`;
      const rows = Array.from({ length: 3000 }, (_, i) => [i, text(i)]);
      await copyRows(client, "many", ["i", "s"], rows);
      const stored = await client.query<{ i: number; s: string }>(
        "SELECT i, s FROM many ORDER BY i",
      );
      expect(stored.rows).toHaveLength(3000);
      expect(stored.rows.every((r, i) => r.i === i && r.s === text(i))).toBe(true);
    } finally {
      client.release();
    }
  });
});
