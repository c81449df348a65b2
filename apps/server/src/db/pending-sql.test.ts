import { isPendingFailure, PENDING_MARKER } from "@assay/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../test/test-database.js";
import { NOT_PENDING_MESSAGE_SQL, PENDING_MESSAGE_SQL } from "./pending-sql.js";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

/** The predicate of an index as PostgreSQL states it back (normalised: casts, brackets). */
const INDEX_PREDICATE = `
  SELECT pg_get_expr(i.indpred, i.indrelid) AS predicate
  FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
  WHERE c.relname = $1`;

describe("the pending rule in SQL", () => {
  it("is migration 0010's index predicate, stated from core's PENDING_MARKER", async () => {
    const client = await database.db.pool.connect();
    try {
      await client.query("BEGIN");
      // The same index built from the constant, so that PostgreSQL normalises both alike.
      await client.query(
        `CREATE INDEX pending_rule_probe ON results (start_time, test_id)
         WHERE is_final AND status = 'failed' AND ${NOT_PENDING_MESSAGE_SQL}`,
      );
      const [migrated, derived] = await Promise.all(
        ["results_failed_time_idx", "pending_rule_probe"].map(async (name) => {
          const { rows } = await client.query<{ predicate: string }>(INDEX_PREDICATE, [name]);
          return rows[0]?.predicate;
        }),
      );
      expect(migrated).toContain(PENDING_MARKER);
      expect(derived).toBe(migrated);
    } finally {
      await client.query("ROLLBACK");
      client.release();
    }
  });

  it("decides as core's isPendingFailure does, for any message", async () => {
    const messages = [
      null,
      "",
      "Pending reason == waiting for NXL-1",
      "Error: Pending reason without a reason",
      "pending reason == lower case is a failure",
      "AssertionError: expected 200, got 500",
      "100% Pending reason_ == odd characters",
      "Pending_reason == an underscore is not a space",
    ];
    const { rows } = await database.db.pool.query<{
      pending: boolean | null;
      not_pending: boolean;
    }>(
      `SELECT ${PENDING_MESSAGE_SQL} AS pending, ${NOT_PENDING_MESSAGE_SQL} AS not_pending
       FROM unnest($1::text[]) WITH ORDINALITY AS m(error_message, n) ORDER BY n`,
      [messages],
    );
    const expected = messages.map((message) => isPendingFailure(message));
    expect(rows.map((row) => row.pending === true)).toEqual(expected);
    expect(rows.map((row) => !row.not_pending)).toEqual(expected);
  });
});
