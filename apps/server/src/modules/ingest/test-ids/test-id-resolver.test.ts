import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../../test/test-database.js";
import { TEST_LOOKUP_SQL } from "./tests.repo.js";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.drop();
});

describe("TEST_LOOKUP_SQL", () => {
  it("finds the catalogue's ids of the identities given as one comma-separated text", async () => {
    const client = await database.db.pool.connect();
    try {
      await client.query("BEGIN");
      await client.query(
        `INSERT INTO tests (id, family, identity, title)
         SELECT g, f, 'id' || g, 'test ' || g
         FROM generate_series(1, 3000) g, (VALUES ('frontend'), ('backend')) v(f)
         WHERE (g % 2 = 0) = (f = 'frontend')`,
      );
      const lookUp = async (identities: string) => {
        const { rows } = await client.query<{ identity: string; id: string }>(TEST_LOOKUP_SQL, [
          "frontend",
          Buffer.from(identities),
        ]);
        return rows.map((r) => [r.identity, Number(r.id)]).sort();
      };
      // id3 is a backend test, id4000 no test at all.
      expect(await lookUp("id2,id3,id3000,id4000")).toEqual([
        ["id2", 2],
        ["id3000", 3000],
      ]);

      // The table has no statistics yet, as in a first upload: each identity is still one probe
      // of the unique index on (family, identity). Planned on the statistics, the family's rows
      // were read and filtered by the array, more of them with each batch an upload registered.
      const { rows } = await client.query<{ "QUERY PLAN": string }>(
        `EXPLAIN (VERBOSE) ${TEST_LOOKUP_SQL}`,
        ["frontend", Buffer.from("id2,id4")],
      );
      const plan = rows.map((r) => r["QUERY PLAN"]).join("\n");
      expect(plan).toMatch(/Index Scan using tests_identity_key on public\.tests\b/);
      expect(plan).toMatch(
        /Index Cond: \(\(tests\.family = .+\) AND \(tests\.identity = i\.identity\)\)/,
      );
      expect(plan.match(/tests_identity_key/g)).toHaveLength(1);
      expect(plan).not.toContain("Seq Scan on public.tests");
      expect(plan).not.toContain("Bitmap");
    } finally {
      await client.query("ROLLBACK");
      client.release();
    }
  });
});
