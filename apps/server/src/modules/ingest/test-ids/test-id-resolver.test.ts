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
      // of the hash index on identity (tests_identity_excl; a bitmap of one key while the planner
      // guesses several rows a key), the family checked on the row found. Planned on the
      // statistics, the family's rows were read and filtered by the array, more of them with each
      // batch an upload registered.
      const planOf = async () => {
        const { rows } = await client.query<{ "QUERY PLAN": string }>(
          `EXPLAIN (VERBOSE) ${TEST_LOOKUP_SQL}`,
          ["frontend", Buffer.from("id2,id4")],
        );
        return rows.map((r) => r["QUERY PLAN"]).join("\n");
      };
      let plan = await planOf();
      expect(plan.match(/Index Scan (using|on) tests_identity_excl\b/g)).toHaveLength(1);
      expect(plan).toMatch(/Index Cond: \(tests\.identity = i\.identity\)/);
      expect(plan).toMatch(/Filter: \(tests\.family = 'frontend'::text\)/);
      expect(plan).not.toContain("Seq Scan on public.tests");

      // Analyzed, each probe is a plain index scan.
      await client.query("ANALYZE tests");
      plan = await planOf();
      expect(plan).toMatch(/\bIndex Scan using tests_identity_excl on public\.tests\b/);
      expect(plan).not.toContain("Bitmap");
    } finally {
      await client.query("ROLLBACK");
      client.release();
    }
  });

  it("keeps one test per identity (the digest hashes the family in)", async () => {
    const client = await database.db.pool.connect();
    try {
      await client.query("BEGIN");
      const insert = (id: number, family: string) =>
        client.query(
          `INSERT INTO tests (id, family, identity, title) VALUES ($1, $2, 'same', 't')`,
          [id, family],
        );
      await insert(1, "frontend");
      await client.query("SAVEPOINT again");
      await expect(insert(2, "frontend")).rejects.toMatchObject({
        code: "23P01",
        constraint: "tests_identity_excl",
      });
      await client.query("ROLLBACK TO SAVEPOINT again");
      await expect(insert(3, "backend")).rejects.toMatchObject({ code: "23P01" });
      await client.query("ROLLBACK TO SAVEPOINT again");
      // Tests known by their report's id have no identity, as many as there are.
      await client.query(
        `INSERT INTO tests (id, family, title) VALUES (4, 'frontend', 'a'), (5, 'frontend', 'b')`,
      );
    } finally {
      await client.query("ROLLBACK");
      client.release();
    }
  });
});
