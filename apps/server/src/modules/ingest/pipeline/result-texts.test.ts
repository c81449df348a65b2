import type { FastifyInstance } from "fastify";
import { expect, it } from "vitest";
import { useIngestApp } from "../../../../test/ingest-app.js";
import type { TestDatabase } from "../../../../test/test-database.js";
import { upload } from "../../../../test/upload.js";

/**
 * Long texts of results stored once a month (migration 0216): two runs of the same tests keep
 * one copy of each test's steps, and each result reads its own back.
 */

let database: TestDatabase;
let app: FastifyInstance;

useIngestApp((made) => ({ database, app } = made));

/** A Cucumber JSON report of two scenarios, each with its steps. */
function report(): Buffer {
  // Each scenario's own lines: lines every scenario shares are read as a Background's.
  const scenario = (name: string, line: number, steps: string[]) => ({
    name,
    type: "scenario",
    keyword: "Scenario",
    line,
    steps: steps.map((step, i) => ({
      keyword: "Given ",
      name: step,
      line: line + 1 + i,
      result: { status: "passed", duration: 2_000_000 },
    })),
  });
  const feature = {
    uri: "features/cart.feature",
    name: "Cart",
    keyword: "Feature",
    elements: [
      scenario("Add an item", 3, ["I open the shop", "I add a book", "the cart shows 1 item"]),
      scenario("Remove an item", 8, ["I open the cart", "I remove the book", "the cart is empty"]),
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

it("stores a test's steps once for two runs, and both runs' results read them back", async () => {
  for (const run of ["cart-1", "cart-2"]) {
    const res = await upload(app, [{ name: "cucumber.json", content: report() }], {
      family: "frontend",
      run_key: run,
    });
    expect(res.statusCode, res.body).toBe(201);
  }
  const pool = database.db.pool;
  // Two tests' steps: two texts, not four.
  const { rows: texts } = await pool.query<{ body: string }>(
    "SELECT body FROM result_texts ORDER BY body",
  );
  expect(texts).toHaveLength(2);
  expect(texts.filter((t) => t.body.includes("I add a book"))).toHaveLength(1);
  // The rows hold a reference, not the text.
  const { rows } = await pool.query<{ inline: number; refs: number }>(
    `SELECT count(json_steps)::int + count(json_before_steps)::int AS inline,
            count(steps_ref)::int AS refs FROM results`,
  );
  expect(rows[0]).toEqual({ inline: 0, refs: 4 });
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
