import type { ResultInput } from "@assay/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../../test/test-database.js";
import { NO_FILES, results, writerFixture } from "../../../../test/writer-fixture.js";
import { RESULT_ID_BLOCK, ResultIds } from "./result-ids.js";
import type { QueuedResult } from "./results-writer.js";
import { finalizeRun } from "../finalize.repo.js";
import { KnownTests } from "../test-ids/test-id-cache.js";
import { nameOf } from "../../../db/results-sql.js";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.drop();
});

const { openUpload, inTransaction, writer } = writerFixture(() => database);

const count = async (sql: string) =>
  Number((await database.db.pool.query<{ n: string }>(sql)).rows[0]!.n);

describe("ResultsWriter", () => {
  it("writes every batch, each result once, with a registered test and an increasing id", async () => {
    const run = await inTransaction(async (client, runId) => {
      const w = writer(client, runId);
      await w.write(results(10));
      expect(w.summary).toMatchObject({ inserted: 10, duplicates: 0 });
      expect(w.ranking()).toBe("none");
      return runId;
    });
    const { rows } = await database.db.pool.query<{ id: string; name: string; title: string }>(
      `SELECT r.id, ${nameOf("r")} AS name, t.title FROM results r JOIN tests t ON t.id = r.test_id WHERE r.run_id = $1 ORDER BY r.id`,
      [run],
    );
    expect(rows.map((r) => r.name)).toEqual(results(10).map((q) => q.result.name));
    expect(rows.every((r) => r.title === r.name)).toBe(true);
  });

  it("stops when reading the source fails, and leaves nothing running on the connection", async () => {
    const before = await count("SELECT count(*) AS n FROM results");
    async function* failing() {
      yield* results(8);
      throw new Error("the report broke at line 9");
    }
    let statementsAfterFailure = 0;
    await expect(
      inTransaction(async (client, runId) => {
        const w = writer(client, runId);
        await w.write(failing()).catch((error: unknown) => {
          // Whatever the writer still had queued must be settled before the caller rolls back.
          const original = client.query.bind(client);
          client.query = ((...args: Parameters<typeof original>) => {
            statementsAfterFailure++;
            return original(...args);
          }) as typeof client.query;
          throw error;
        });
      }),
    ).rejects.toThrow("the report broke at line 9");
    expect(statementsAfterFailure).toBe(1); // the ROLLBACK
    expect(await count("SELECT count(*) AS n FROM results")).toBe(before);
  });

  it("reports a batch the database refuses", async () => {
    const before = await count("SELECT count(*) AS n FROM results");
    const source = results(9);
    // status is checked by the table: the second batch fails in PostgreSQL.
    source[4]!.result = { ...source[4]!.result, status: "exploded" as "passed" };
    await expect(
      inTransaction((client, runId) => writer(client, runId).write(source)),
    ).rejects.toThrow(/results_status_check/);
    expect(await count("SELECT count(*) AS n FROM results")).toBe(before);
  });

  it("keeps what an upload learned within KnownTests' bound, and looks a dropped test up again", async () => {
    // A bound below the batch size (3): a batch's own ids must not depend on what is kept.
    const known = new KnownTests(2);
    // Nine new tests, then a retry of the first: by then it has left the upload's memory.
    const source = results(9, "bounded");
    source.push({ ...source[0]!, result: { ...source[0]!.result, attempt: 1 } });
    const { run, learned } = await inTransaction(async (client, runId) => {
      const w = writer(client, runId, known);
      await w.write(source);
      return { run: runId, learned: w.learnedTests.size };
    });
    expect(learned).toBeGreaterThan(0);
    expect(learned).toBeLessThanOrEqual(2);
    const { rows } = await database.db.pool.query<{ name: string; test_id: string }>(
      `SELECT ${nameOf("r")} AS name, test_id FROM results r WHERE run_id = $1 ORDER BY id`,
      [run],
    );
    expect(rows).toHaveLength(10);
    expect(rows[9]!.test_id).toBe(rows[0]!.test_id);
    expect(new Set(rows.map((r) => r.test_id)).size).toBe(9);
    expect(await count("SELECT count(*) AS n FROM tests WHERE title LIKE 'bounded %'")).toBe(9);
  });

  it("uses known tests without asking the database, and learns new ones", async () => {
    const known = new KnownTests();
    const first = await inTransaction(async (client, runId) => {
      const w = writer(client, runId, known);
      await w.write(results(4, "known"));
      return w.learnedTests;
    });
    expect(first.size).toBe(4);
    known.remember(first);
    let catalogueQueries = 0;
    await inTransaction(async (client, runId) => {
      const original = client.query.bind(client);
      client.query = ((...args: Parameters<typeof original>) => {
        const sql = typeof args[0] === "string" ? args[0] : "";
        if (/\btests\b/.test(sql)) catalogueQueries++;
        return original(...args);
      }) as typeof client.query;
      await writer(client, runId, known).write(results(4, "known"));
    });
    expect(catalogueQueries).toBe(0);
  });

  /** Whether `promise` is still pending after `ms`. */
  async function pendingAfter(promise: Promise<unknown>, ms: number): Promise<boolean> {
    const timeout = new Promise((resolve) => setTimeout(() => resolve("pending"), ms));
    return (await Promise.race([promise.then(() => "done"), timeout])) === "pending";
  }

  const testIdsOf = async (runId: number) =>
    (
      await database.db.pool.query<{ test_id: string }>(
        "SELECT test_id FROM results WHERE run_id = $1 ORDER BY id",
        [runId],
      )
    ).rows.map((r) => r.test_id);

  it("steps over ids that reports gave when it assigns ids to new tests", async () => {
    const { rows } = await database.db.pool.query<{ v: string }>(
      "SELECT nextval('test_id_seq') AS v",
    );
    const v = Number(rows[0]!.v);
    // A report names tests by the next ids the sequence would hand out (TC tags, titles).
    const claimed = [v + 1, v + 3].map((id) => ({
      result: { name: `TC${id} claims an id`, status: "passed" } as ResultInput,
      files: NO_FILES,
    }));
    await inTransaction((client, runId) => writer(client, runId).write(claimed));
    const runId = await inTransaction(async (client, runId) => {
      await writer(client, runId).write(results(4, "fresh"));
      return runId;
    });
    expect((await testIdsOf(runId)).map(Number).sort((a, b) => a - b)).toEqual([
      v + 2,
      v + 4,
      v + 5,
      v + 6,
    ]);
  });

  it("draws again when every id it drew for a new test was taken", async () => {
    const { rows } = await database.db.pool.query<{ v: string }>(
      "SELECT nextval('test_id_seq') AS v",
    );
    const v = Number(rows[0]!.v);
    const claimed = [
      {
        result: { name: `TC${v + 1} claims an id`, status: "passed" } as ResultInput,
        files: NO_FILES,
      },
    ];
    await inTransaction((client, runId) => writer(client, runId).write(claimed));
    // One new test: the one id drawn (v + 1) is taken, so none is free, and the next is drawn.
    const runId = await inTransaction(async (client, runId) => {
      await writer(client, runId).write(results(1, "alone"));
      return runId;
    });
    expect((await testIdsOf(runId)).map(Number)).toEqual([v + 2]);
  });

  it("gives two uploads that register the same new tests at once the same ids", async () => {
    const first = await openUpload();
    const second = await openUpload();
    try {
      await writer(first.client, first.runId).write(results(3, "raced"));
      // The second upload waits for the registration lock, held until the first one's COMMIT.
      const waiting = writer(second.client, second.runId).write(results(3, "raced"));
      expect(await pendingAfter(waiting, 200)).toBe(true);
      await first.client.query("COMMIT");
      await waiting;
      await second.client.query("COMMIT");
    } finally {
      first.client.release();
      second.client.release();
    }
    expect(await testIdsOf(first.runId)).toHaveLength(3);
    expect(await testIdsOf(second.runId)).toEqual(await testIdsOf(first.runId));
    expect(await count("SELECT count(*) AS n FROM tests WHERE title LIKE 'raced %'")).toBe(3);
  });

  it("lets an upload of known tests through while another registers new ones", async () => {
    await inTransaction((client, runId) => writer(client, runId).write(results(2, "settled")));
    const registering = await openUpload();
    const reading = await openUpload();
    try {
      await writer(registering.client, registering.runId).write(results(2, "brand new"));
      // Known to the catalogue, not to this writer's cache: looked up, no lock needed.
      const known = writer(reading.client, reading.runId).write(results(2, "settled"));
      expect(await pendingAfter(known, 2000)).toBe(false);
      await reading.client.query("COMMIT");
      await registering.client.query("ROLLBACK");
    } finally {
      registering.client.release();
      reading.client.release();
    }
    expect(await testIdsOf(reading.runId)).toHaveLength(2);
    expect(await count("SELECT count(*) AS n FROM tests WHERE title LIKE 'brand new %'")).toBe(0);
  });

  it("ranks only the retried tests of a fresh run, with the flags and counts of a full ranking", async () => {
    // Retries sent apart (another batch in between), one with a different explicit id per
    // attempt, one that passed after failing (flaky), one failed twice.
    // Each attempt lasts n + 1 ms and starts n hours into the day, so the counts tell which
    // attempts were taken out and the run spans all of them.
    const attempt = (name: string, n: number, status: string, tags: string[] = []) => ({
      result: {
        name,
        status,
        attempt: n,
        tags,
        suite_path: ["s"],
        duration_ms: n + 1,
        start_time: `2026-03-01T0${n}:00:00Z`,
        end_time: `2026-03-01T0${n}:30:00Z`,
      } as ResultInput,
      files: NO_FILES,
    });
    const upload = [
      attempt("flaky", 0, "failed"),
      ...results(4, "steady"),
      attempt("flaky", 1, "passed"),
      attempt("broken", 0, "failed", ["TC901"]),
      attempt("broken", 1, "failed", ["TC902"]),
      attempt("fixed later", 0, "failed"),
    ];
    const flags = (runId: number) =>
      database.db.pool
        .query<{ name: string; attempt: number; is_final: boolean; flaky: boolean }>(
          `SELECT ${nameOf("r")} AS name, attempt, is_final, flaky FROM results r WHERE run_id = $1 ORDER BY id`,
          [runId],
        )
        .then((r) => r.rows);
    const counts = (runId: number) =>
      database.db.pool
        .query(
          "SELECT total, passed, failed, pending, flaky, duration_ms, started_at, finished_at FROM runs WHERE id = $1",
          [runId],
        )
        .then((r) => r.rows[0]);
    const targeted = await inTransaction(async (client, runId) => {
      const w = writer(client, runId);
      await w.write(upload);
      const rank = w.ranking();
      // the two attempts of flaky and the two of broken; fixed later came once
      expect(Array.isArray(rank) && rank.length).toBe(4);
      await finalizeRun(client, runId, { rank, tally: w.tally });
      return runId;
    });
    const full = await inTransaction(async (client, runId) => {
      await writer(client, runId).write(upload);
      await finalizeRun(client, runId, { rank: "all" });
      return runId;
    });
    expect(await flags(targeted)).toEqual(await flags(full));
    expect((await flags(targeted)).filter((r) => !r.is_final).map((r) => r.name)).toEqual([
      "flaky",
    ]);
    expect((await flags(targeted)).filter((r) => r.flaky).map((r) => r.name)).toEqual(["flaky"]);
    expect(await counts(targeted)).toEqual(await counts(full));
    expect(await counts(targeted)).toMatchObject({
      total: 8,
      passed: 5,
      failed: 3,
      flaky: 1,
      // final attempts: flaky's second (2 ms), both of broken (two test ids: 1 + 2 ms), fixed
      // later (1 ms); the steady ones have no duration
      duration_ms: 6,
      started_at: new Date("2026-03-01T00:00:00Z"),
      finished_at: new Date("2026-03-01T01:30:00Z"),
    });
  });

  it("names a retry's attempts by their ids when they are more than an id block apart", async () => {
    const attempt = (n: number, status: string): QueuedResult => ({
      result: { name: "late retry", status, attempt: n, suite_path: ["s"] } as ResultInput,
      files: NO_FILES,
    });
    const upload = [attempt(0, "failed"), ...results(RESULT_ID_BLOCK + 100), attempt(1, "passed")];
    const [rank, runId] = await inTransaction(async (client, runId) => {
      const w = writer(client, runId, new KnownTests(), 500);
      await w.write(upload);
      return [w.ranking(), runId] as const;
    });
    const { rows } = await database.db.pool.query<{ id: string }>(
      `SELECT id FROM results r WHERE run_id = $1 AND ${nameOf("r")} = 'late retry' ORDER BY attempt`,
      [runId],
    );
    expect(rank).toEqual(rows.map((r) => Number(r.id)));
    expect(rows).toHaveLength(2);
  });
});

describe("run counts", () => {
  it("counts a fresh single-attempt upload while writing exactly as from its stored results", async () => {
    const mixed: ResultInput[] = [
      {
        name: "a",
        status: "passed",
        duration_ms: 12.5,
        start_time: "2026-03-01T10:00:00.123456+02:00",
        end_time: "2026-03-01T10:00:01Z",
      },
      { name: "b", status: "failed", error_message: "expected 1 to be 2 nxl-12", duration_ms: 3 },
      {
        name: "c",
        status: "failed",
        error_message: "Pending reason == flaky env",
        start_time: "2026-03-01T07:59:59.5Z",
      },
      { name: "d", status: "skipped", end_time: "2026-03-01T09:30:00.000001+01:00" },
      {
        name: "e",
        status: "passed",
        start_time: "2026-03-01T08:00:00Z",
        end_time: "2026-03-01T08:00:02Z",
      },
    ] as ResultInput[];
    const counts = () =>
      database.db.pool.query(
        "SELECT total, passed, failed, pending, flaky, duration_ms, started_at, finished_at FROM runs WHERE id = $1",
        [run],
      );
    let run = 0;
    await inTransaction(async (client, runId) => {
      run = runId;
      const w = writer(client, runId);
      await w.write(mixed.map((result) => ({ result, files: NO_FILES })));
      expect(w.ranking()).toBe("none");
      await finalizeRun(client, runId, { rank: "none", tally: w.tally });
    });
    const tallied = (await counts()).rows[0];
    expect(tallied).toMatchObject({
      total: 5,
      passed: 2,
      failed: 1,
      pending: 2,
      flaky: 0,
      duration_ms: 15.5,
    });
    await inTransaction((client) => finalizeRun(client, run));
    expect((await counts()).rows[0]).toEqual(tallied);
  });
});

describe("ResultIds", () => {
  it("hands out distinct increasing ids from blocks, also to two uploads at once", async () => {
    const a = new ResultIds();
    const b = new ResultIds();
    const [one, two, three] = await inTransaction(async (client) => [
      await a.take(client, RESULT_ID_BLOCK + 5),
      await b.take(client, 10),
      await a.take(client, RESULT_ID_BLOCK),
    ]);
    const mine = [...one!, ...three!];
    expect(mine).toEqual([...mine].sort((x, y) => x - y));
    expect(new Set([...mine, ...two!]).size).toBe(mine.length + two!.length);
    // Positions count from a's first id, across its blocks and b's taking in between.
    expect(
      [0, RESULT_ID_BLOCK + 4, RESULT_ID_BLOCK + 5, 2 * RESULT_ID_BLOCK + 4].map((p) => a.idAt(p)),
    ).toEqual([one![0], one![RESULT_ID_BLOCK + 4], three![0], three![RESULT_ID_BLOCK - 1]]);
    expect(() => a.idAt(2 * RESULT_ID_BLOCK + 5)).toThrow(/no result id/);
  });
});
