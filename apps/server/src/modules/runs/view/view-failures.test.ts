import {
  FrontendRunViewSchema,
  RunHistorySchema,
  matchesFailureFilter,
  type FailureFilter,
} from "@assay/core";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp } from "../../../../test/build-test-app.js";
import { insertResult, insertRun, insertTest, type TestRef } from "../../../../test/factories.js";
import { createTestDatabase, type TestDatabase } from "../../../../test/test-database.js";
import { Rng } from "../../../demo/prng.js";

/*
 * The failure filters' first request reads the earlier history of the run's failing tests only
 * (view-failures.ts), not of every test of the run: the statements it sends are captured, and
 * both reads are EXPLAIN ANALYZEd to count the results rows each reads. What it keeps is still
 * what the whole run's history gives.
 */

let database: TestDatabase;
let app: FastifyInstance;
const TESTS = 600;
const RUN_KEY = "vf-now";
const NOW = "2025-06-05T10:00:00Z";
/** Tests whose newest result in the run is a failure that is not pending. */
const failing = new Set<number>();
/** Tests with two results in the run (a filter keeps both). */
const twice = new Set<number>();

interface Sent {
  text: string;
  values: unknown[];
}
const sent: Sent[] = [];

/** Every statement the app's pool runs, as the bench's captureStatements does. */
function captureStatements(): void {
  const wrapped = new WeakSet<object>();
  database.db.pool.on("acquire", (client) => {
    if (wrapped.has(client)) return;
    wrapped.add(client);
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    client.query = ((...args: unknown[]) => {
      if (typeof args[0] === "string") {
        sent.push({ text: args[0], values: (args[1] as unknown[] | undefined) ?? [] });
      }
      return query(...args);
    }) as typeof client.query;
  });
}

const historyReads = () => sent.filter((s) => s.text.includes("AS own(test_id, read_id, anchor)"));

async function generate(tests: TestRef[]) {
  const db = database.db;
  const rng = Rng.for("view-failures");
  for (let day = 1; day <= 3; day++) {
    const earlier = await insertRun(db, { test_run_key: `vf-d${day}` });
    await Promise.all(
      tests.map((test) =>
        insertResult(db, earlier, test, {
          status: rng.chance(0.4) ? "failed" : "passed",
          start_time: `2025-06-0${day}T10:00:00Z`,
        }),
      ),
    );
  }
  const run = await insertRun(db, { test_run_key: RUN_KEY, started_at: NOW });
  for (const [i, test] of tests.entries()) {
    const roll = rng.float();
    if (i % 50 === 1) {
      // Two results of one test: a failure, then a later pass. Its newest entry passed.
      await insertResult(db, run, test, { status: "failed", start_time: "2025-06-05T09:00:00Z" });
      await insertResult(db, run, test, { status: "passed", start_time: NOW });
      twice.add(test.id);
    } else if (i % 50 === 2) {
      // Two at the same time: the first in report order is the newest entry.
      await insertResult(db, run, test, { status: "failed", start_time: NOW });
      await insertResult(db, run, test, { status: "passed", start_time: NOW });
      failing.add(test.id);
      twice.add(test.id);
    } else if (roll < 0.1) {
      await insertResult(db, run, test, { status: "failed", start_time: NOW });
      failing.add(test.id);
    } else if (roll < 0.13) {
      // A pending failure is 'other' in history: no failure filter keeps it.
      const error_message = "Pending reason == waiting for NXL-9";
      await insertResult(db, run, test, { status: "failed", error_message, start_time: NOW });
    } else {
      await insertResult(db, run, test, { status: rng.chance(0.9) ? "passed" : "skipped" });
    }
  }
}

beforeAll(async () => {
  database = await createTestDatabase();
  app = (await buildTestApp(database.db)).app;
  const tests = await Promise.all(
    Array.from({ length: TESTS }, (_, i) => insertTest(database.db, { title: `Test ${i}` })),
  );
  await generate(tests);
  captureStatements();
}, 120_000);

afterAll(async () => {
  await app?.close();
  await database?.drop();
});

async function shownUnder(filter: FailureFilter): Promise<number> {
  // Past the end: no page, so no page history is read, only what the filter needs.
  const response = await app.inject({
    url: `/v1/test-runs/${RUN_KEY}/view?failure=${filter}&offset=1000000&limit=1`,
  });
  expect(response.statusCode, response.body).toBe(200);
  return FrontendRunViewSchema.parse(response.json()).shown;
}

interface PlanNode {
  "Relation Name"?: string;
  "Actual Rows"?: number;
  "Actual Loops"?: number;
  Plans?: PlanNode[];
}

/** Rows of `results` the statement's scans return, over all their loops. */
async function resultsRowsRead(statement: Sent): Promise<number> {
  const { rows } = await database.db.pool.query<{ "QUERY PLAN": [{ Plan: PlanNode }] }>(
    `EXPLAIN (ANALYZE, FORMAT JSON) ${statement.text}`,
    statement.values,
  );
  const walk = (node: PlanNode): number =>
    // results' rows are read from its monthly partitions (migration 0191), named in the plan.
    (/^(results|test_results_p\w+)$/.test(node["Relation Name"] ?? "")
      ? (node["Actual Rows"] ?? 0) * (node["Actual Loops"] ?? 1)
      : 0) + (node.Plans ?? []).reduce((sum, child) => sum + walk(child), 0);
  return walk(rows[0]!["QUERY PLAN"][0].Plan);
}

describe("the failure filters' first request", () => {
  it("reads the earlier history of the run's failing tests only, once for both filters", async () => {
    sent.length = 0;
    const newFailures = await shownUnder("new_failure");
    const reads = historyReads();
    expect(reads).toHaveLength(1);
    const [probed] = reads[0]!.values as [string[]];
    expect(new Set(probed.map(Number))).toEqual(failing);
    expect(failing.size).toBeGreaterThan(30);
    expect(failing.size).toBeLessThan(TESTS / 5);

    // The other filter's tests came from the same read.
    const threeDays = await shownUnder("failed_three_days");
    expect(historyReads()).toHaveLength(1);

    // What they keep is what the whole run's history gives.
    const history = RunHistorySchema.parse(
      (await app.inject({ url: `/v1/test-runs/${RUN_KEY}/history?limit=3` })).json(),
    );
    // The results of the tests it keeps.
    const count = (filter: FailureFilter) =>
      Object.entries(history)
        .filter(([, entries]) => matchesFailureFilter(filter, entries))
        .reduce((sum, [testId]) => sum + (twice.has(Number(testId)) ? 2 : 1), 0);
    expect(newFailures).toBe(count("new_failure"));
    expect(threeDays).toBe(count("failed_three_days"));
    expect(Math.min(newFailures, threeDays)).toBeGreaterThan(0);

    // The rows it reads, against the read of every test of the run that the filter used to make
    // (the same read as the history route's, which the request above just sent).
    const allTests = historyReads().at(-1)!;
    expect(allTests).not.toBe(reads[0]);
    expect(allTests.values[0]).toHaveLength(TESTS);
    const now = await resultsRowsRead(reads[0]!);
    const before = await resultsRowsRead(allTests);
    expect(now).toBeLessThanOrEqual(failing.size * 3);
    expect(now * 4).toBeLessThan(before);
  }, 60_000);
});
