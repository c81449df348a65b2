import type { ResultInput } from "@assay/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../../test/test-database.js";
import { emptyBatchFacts, FactIds, factValues, NO_FACTS, UploadFacts } from "./result-facts.js";
import { storeFacts } from "./results.repo.js";

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.drop();
});

const result = (fields: Partial<ResultInput>): ResultInput =>
  ({ name: "t", status: "passed", ...fields }) as ResultInput;

describe("UploadFacts", () => {
  it("numbers an upload's tuples once, run-length per batch, none for a result without facts", () => {
    const facts = new UploadFacts();
    const run = { branch: "main", commit_hash: "abc" };
    const first = emptyBatchFacts();
    for (const platform of ["linux", "linux", "windows", "linux"]) {
      facts.add(factValues(result({ platform }), run), first);
    }
    facts.add(factValues(result({}), {}), first);
    expect(first.added.map((tuple) => [tuple.n, tuple.values[4]])).toEqual([
      [0, "linux"],
      [1, "windows"],
    ]);
    expect(first.runs).toEqual([0, 2, 1, 1, 0, 1, NO_FACTS, 1]);
    // A later batch refers to the tuples the upload met already without adding them again.
    const second = emptyBatchFacts();
    facts.add(factValues(result({ platform: "windows" }), run), second);
    expect(second).toEqual({ added: [], runs: [1, 1] });
  });

  it("keys a NUL as it is stored (U+FFFD), and a result's own fact before the run's", () => {
    const values = factValues(result({ branch: "own\u0000" }), { branch: "main" });
    expect(values[6]).toBe("own\uFFFD");
  });
});

describe("storeFacts", () => {
  const LINUX = ["stage", "5.2", "abc", "126", "linux", "robot", "main", null];
  const WINDOWS = [...LINUX.slice(0, 4), "windows", ...LINUX.slice(5)];

  it("stores new tuples, finds stored ones, and gives each row its tuple's id", async () => {
    const client = await database.db.pool.connect();
    try {
      const [linux, windows] = await storeFacts(client, [LINUX, WINDOWS]);
      expect(linux).not.toBe(windows);
      // NULL and '' are two tuples.
      const [empty] = await storeFacts(client, [[...LINUX.slice(0, 7), ""]]);
      expect(await storeFacts(client, [WINDOWS, LINUX])).toEqual([windows, linux]);
      expect(empty).not.toBe(linux);

      const ids = new FactIds();
      const batch = { added: [{ n: 0, values: WINDOWS }], runs: [0, 2, NO_FACTS, 1] };
      expect(await ids.resolve(client, batch)).toEqual([windows, windows, null]);
      expect(await ids.resolve(client, { added: [], runs: [0, 1] })).toEqual([windows]);
    } finally {
      client.release();
    }
  });

  it("does not wait for another upload that stored the same new tuple and has not committed", async () => {
    const tuple = ["stage", "9.9", "new-commit", null, null, "robot", "main", null];
    const first = await database.db.pool.connect();
    const second = await database.db.pool.connect();
    try {
      await first.query("BEGIN");
      const [mine] = await storeFacts(first, [tuple]);
      await second.query("BEGIN");
      // With a unique key this would wait for `first` to end: the timeout says it did not.
      await second.query("SET LOCAL statement_timeout = 2000");
      const [theirs] = await storeFacts(second, [tuple]);
      expect(theirs).not.toBe(mine);
      await second.query("COMMIT");
      await first.query("COMMIT");
      // Later uploads take the oldest of the two.
      expect(await storeFacts(second, [tuple])).toEqual([Math.min(mine!, theirs!)]);
    } finally {
      await first.query("ROLLBACK").catch(() => undefined);
      first.release();
      second.release();
    }
  });
});
