import type { FastifyInstance } from "fastify";
import { expect, it } from "vitest";
import { useIngestApp } from "../../../../test/ingest-app.js";
import type { TestDatabase } from "../../../../test/test-database.js";
import { upload } from "../../../../test/upload.js";
import { stackOf } from "../../../db/results-sql.js";

/**
 * Long texts of results stored once a month (migration 0216): two runs of the same tests keep
 * one copy of each test's steps, and each result reads its own back.
 */

let database: TestDatabase;
let app: FastifyInstance;

useIngestApp((made) => ({ database, app } = made));

const STACK =
  "AssertionError: the cart holds 1 item\n    at Cart.isEmpty (steps/cart.js:41:11)\n    at World.<anonymous> (steps/cart.js:12:3)";

/** A Cucumber JSON report of two scenarios, each with its steps. */
function report(): Buffer {
  // Each scenario's own lines: lines every scenario shares are read as a Background's.
  const scenario = (name: string, line: number, steps: string[], error?: string) => ({
    name,
    type: "scenario",
    keyword: "Scenario",
    line,
    steps: steps.map((step, i) => ({
      keyword: "Given ",
      name: step,
      line: line + 1 + i,
      result:
        error && i === steps.length - 1
          ? { status: "failed", duration: 2_000_000, error_message: error }
          : { status: "passed", duration: 2_000_000 },
    })),
  });
  const feature = {
    uri: "features/cart.feature",
    name: "Cart",
    keyword: "Feature",
    elements: [
      scenario("Add an item", 3, ["I open the shop", "I add a book", "the cart shows 1 item"]),
      scenario(
        "Remove an item",
        8,
        ["I open the cart", "I remove the book", "the cart is empty"],
        STACK,
      ),
    ],
  };
  return Buffer.from(JSON.stringify([feature]));
}

interface Detail {
  json_steps: { action: string }[];
  json_before_steps: { action: string }[];
}

async function detail(run: string, name: string): Promise<Detail> {
  const { results } = (await app.inject({ method: "GET", url: `/v1/test-runs/${run}` })).json<{
    results: { test_run_test_id: string; name: string }[];
  }>();
  const id = results.find((r) => r.name === name)!.test_run_test_id;
  return (await app.inject({ method: "GET", url: `/v1/test-detail/${run}/${id}` })).json<Detail>();
}

it("stores a test's steps and stack once for two runs, and both runs' results read them back", async () => {
  for (const run of ["cart-1", "cart-2"]) {
    const res = await upload(app, [{ name: "cucumber.json", content: report() }], {
      family: "frontend",
      run_key: run,
    });
    expect(res.statusCode, res.body).toBe(201);
  }
  const pool = database.db.pool;
  // Two tests' steps and one failure's stack: three texts, not six.
  const { rows: texts } = await pool.query<{ body: string }>(
    "SELECT body FROM result_texts ORDER BY body",
  );
  expect(texts).toHaveLength(3);
  expect(texts.filter((t) => t.body.includes("I add a book"))).toHaveLength(1);
  // The rows hold a reference, not the text.
  const { rows } = await pool.query<{ inline: number; refs: number }>(
    `SELECT count(json_steps)::int + count(json_before_steps)::int + count(error_stack)::int
              AS inline,
            count(steps_ref)::int + count(stack_ref)::int AS refs FROM results`,
  );
  expect(rows[0]).toEqual({ inline: 0, refs: 6 });
  // Both failures read the stack back, whole.
  const { rows: stacks } = await pool.query<{ stack: string }>(
    `SELECT ${stackOf("r")} AS stack FROM results r WHERE status = 'failed'`,
  );
  expect(stacks.map((r) => r.stack)).toEqual([
    expect.stringContaining(STACK),
    expect.stringContaining(STACK),
  ]);
  for (const run of ["cart-1", "cart-2"]) {
    const add = await detail(run, "Add an item");
    expect(add.json_steps.map((s) => s.action)).toEqual([
      "Given I open the shop",
      "Given I add a book",
      "Given the cart shows 1 item",
    ]);
    expect(add.json_before_steps).toEqual([]);
    const remove = await detail(run, "Remove an item");
    expect(remove.json_steps.map((s) => s.action)).toContain("Given I remove the book");
  }
});
