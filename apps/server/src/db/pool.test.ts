import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../test/test-database.js";
import { isDatabaseDown } from "../database-down.js";
import { withTransaction } from "./pool.js";

// A connection lost while a client is checked out of the pool (its backend killed: the
// PostgreSQL crash campaign SIGKILLs one mid-COPY) fails that request, and nothing else: it was
// an unhandled 'error' event on the pg client, which ended the whole server. Vitest fails a run
// on such an uncaught error, so the test below catches the regression by itself.

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  await database.drop();
});

describe("the pool when a checked-out client loses its connection", () => {
  it("fails that transaction as 'database down', keeps the process up, and serves the next query", async () => {
    const { pool } = database.db;
    const failed = await withTransaction(database.db, async (client) => {
      const { rows } = await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
      // Ended from another session, while this one is idle in its transaction (as when
      // the server parses the next part of an upload).
      await pool.query("SELECT pg_terminate_backend($1)", [rows[0]!.pid]);
      await new Promise((r) => setTimeout(r, 300));
      await client.query("SELECT 1");
    }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failed).toBeDefined();
    expect(isDatabaseDown(failed)).toBe(true);
    const { rows } = await pool.query<{ one: number }>("SELECT 1 AS one");
    expect(rows).toEqual([{ one: 1 }]);
  });
});
