import type { FastifyInstance } from "fastify";
import { describe, expect, it } from "vitest";
import { useIngestApp } from "../../../../test/ingest-app.js";
import type { TestDatabase } from "../../../../test/test-database.js";
import { derivedTestRunTestId } from "../pipeline/result-rows.js";
import { identityOf } from "../test-ids/test-identity.js";
import {
  attachPng,
  RESULT_FACTS_SQL,
  TEST_INGEST_TOKEN,
  TINY_PNG as PNG,
} from "../../../../test/upload.js";
import { nameOf } from "../../../db/results-sql.js";

let database: TestDatabase;
let app: FastifyInstance;
const auth = { authorization: `Bearer ${TEST_INGEST_TOKEN}` };

useIngestApp((made) => ({ database, app } = made));

const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
  app.inject({ method: "POST", url, headers: { ...auth, ...headers }, payload: payload as string });

async function runState(key: string) {
  const { rows } = await database.db.pool.query(
    "SELECT state, total, passed, failed, pending FROM runs WHERE test_run_key = $1",
    [key],
  );
  return rows[0];
}

describe("live reporting", () => {
  it("opens a run, appends JSON and NDJSON batches readable at once, attaches a file and finishes", async () => {
    const opened = await post("/v1/ingest/runs", {
      family: "frontend",
      nora_site: "stage.example.com",
      run_key: "live-1",
    });
    expect(opened.statusCode).toBe(201);
    expect(opened.json()).toEqual({
      test_run_key: "live-1",
      state: "open",
      url: "/test_runs/live-1",
    });

    const first = await post("/v1/ingest/runs/live-1/results", [
      {
        test_run_test_id: "login-1",
        name: "logs in @TC501",
        status: "passed",
        steps: [{ action: "Given the login page", passed: true }],
      },
      {
        test_run_test_id: "cart-1",
        name: "adds to cart",
        status: "failed",
        error_message: "Known bug NXL-12",
      },
    ]);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({
      inserted: 2,
      duplicates: 0,
      counts: { total: 2, passed: 1, failed: 1 },
    });
    expect(await runState("live-1")).toMatchObject({ state: "open", total: 2 });

    const ndjson = [
      JSON.stringify({
        test_run_test_id: "pending-1",
        name: "waits",
        status: "failed",
        error_message: "Pending reason == env down",
      }),
      "",
      JSON.stringify({ test_run_test_id: "login-1", name: "logs in @TC501", status: "passed" }),
    ].join("\n");
    const second = await post("/v1/ingest/runs/live-1/results", ndjson, {
      "content-type": "application/x-ndjson",
    });
    expect(second.json()).toMatchObject({
      inserted: 1,
      duplicates: 1,
      counts: { total: 3, pending: 1, failed: 1 },
    });

    const attached = await attachPng(app, "live-1", "login-1", {
      description: "after login",
      step_index: "0",
    });
    expect(attached.statusCode).toBe(201);
    const object = await app.inject({
      method: "GET",
      url: `/v1/objects/${attached.json().object_key}`,
    });
    expect(object.statusCode).toBe(200);
    expect(object.headers["content-type"]).toBe("image/png");
    expect(object.rawPayload.equals(PNG)).toBe(true);

    const finished = await post("/v1/ingest/runs/live-1/finish", undefined);
    expect(finished.statusCode).toBe(200);
    expect(finished.json()).toMatchObject({ state: "finished", counts: { total: 3 } });
    expect(await runState("live-1")).toMatchObject({ state: "finished" });

    const { rows } = await database.db.pool.query(
      "SELECT test_id::int FROM results WHERE test_run_test_id = 'login-1'",
    );
    expect(rows).toEqual([{ test_id: 501 }]);
  });

  it("uses a result's test_id as its stable id", async () => {
    await post("/v1/ingest/runs", { run_key: "live-ids" });
    await post("/v1/ingest/runs/live-ids/results", [
      { test_id: 777, name: "plain name", status: "passed" },
    ]);
    const { rows } = await database.db.pool.query(
      "SELECT r.test_id::int FROM results r JOIN runs ON runs.id = r.run_id WHERE runs.test_run_key = 'live-ids'",
    );
    expect(rows).toEqual([{ test_id: 777 }]);
  });

  it("answers 422 and stores nothing when a stated id is the id derived for another test", async () => {
    await post("/v1/ingest/runs", { run_key: "live-same-id" });
    const derivedForB = derivedTestRunTestId(identityOf("frontend", undefined, [], "b"), 0);
    const res = await post("/v1/ingest/runs/live-same-id/results", [
      { name: "b", status: "passed" },
      { name: "a", status: "passed", test_run_test_id: derivedForB },
    ]);
    expect(res.statusCode).toBe(422);
    expect(res.json().error).toMatchObject({ code: "repeated_result_id" });
    expect(res.json().error.message).toContain(`"${derivedForB}"`);
    expect(await runState("live-same-id")).toMatchObject({ total: 0 });
    // In the opposite order the preparer sees the stated id first and gives the derived a suffix.
    const again = await post("/v1/ingest/runs/live-same-id/results", [
      { name: "a", status: "passed", test_run_test_id: derivedForB },
      { name: "b", status: "passed" },
    ]);
    expect(again.statusCode).toBe(200);
    expect(await runState("live-same-id")).toMatchObject({ total: 2 });
  });

  it("gives appended results the run's site, branch, commit and executor when they have none", async () => {
    await post("/v1/ingest/runs", {
      run_key: "live-facts",
      nora_site: "dev1.example.com",
      branch: "main",
      commit: "abc123",
      executor: "robot",
    });
    await post("/v1/ingest/runs/live-facts/results", [
      { name: "plain", status: "passed" },
      { name: "own site", status: "passed", nora_site: "stage.example.com" },
    ]);
    const { rows } = await database.db.pool.query(
      `SELECT ${nameOf("r")} AS name, ${RESULT_FACTS_SQL} FROM results r
       JOIN runs ON runs.id = r.run_id WHERE runs.test_run_key = 'live-facts' ORDER BY name`,
    );
    expect(rows).toEqual([
      {
        name: "own site",
        nora_site: "stage.example.com",
        branch: "main",
        commit_hash: "abc123",
        executor: "robot",
      },
      {
        name: "plain",
        nora_site: "dev1.example.com",
        branch: "main",
        commit_hash: "abc123",
        executor: "robot",
      },
    ]);
  });

  it("names the line of a bad NDJSON result and stores nothing of the batch", async () => {
    await post("/v1/ingest/runs", { run_key: "live-2" });
    const body = `${JSON.stringify({ name: "ok", status: "passed" })}\n{"name": "no status"}`;
    const res = await post("/v1/ingest/runs/live-2/results", body, {
      "content-type": "application/x-ndjson",
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toMatch(/^Line 2, \$\.status: /);
    expect(await runState("live-2")).toMatchObject({ total: 0 });
  });

  it("names the result and field at fault in a JSON batch, and reads bodies as uploaded files", async () => {
    await post("/v1/ingest/runs", { run_key: "live-bad" });
    const url = "/v1/ingest/runs/live-bad/results";
    const bad = await post(url, [
      { name: "a", status: "passed" },
      { name: "b", status: "bad" },
    ]);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toMatch(/^\$\[1\]\.status: /);
    const text = await post(url, '"a string"', { "content-type": "application/json" });
    expect(text.statusCode).toBe(400);
    expect(text.json().error.message).toMatch(/^\$: .*expected array/);

    // Nested past 64 levels, in a JSON batch and in an NDJSON line.
    const deep = `${"[".repeat(5000)}${"]".repeat(5000)}`;
    const properties = `{"name":"deep","status":"passed","properties":{"x":${deep}}}`;
    const json = await post(url, `[${properties}]`, { "content-type": "application/json" });
    expect(json.statusCode).toBe(400);
    expect(json.json().error.message).toMatch(
      /^The request body \(line 1, column \d+\): JSON is nested deeper than 64 levels/,
    );
    const ndjson = await post(url, properties, { "content-type": "application/x-ndjson" });
    expect(ndjson.statusCode).toBe(400);
    expect(ndjson.json().error.message).toMatch(/^Line 1, column \d+: JSON is nested deeper/);

    // __proto__ is refused in NDJSON as in JSON.
    const proto = '{"name":"p","status":"passed","properties":{"__proto__":{"polluted":true}}}';
    for (const type of ["application/json", "application/x-ndjson"]) {
      const res = await post(url, type === "application/json" ? `[${proto}]` : proto, {
        "content-type": type,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.message).toContain("__proto__");
    }
    const syntax = await post(url, '{"name": "x",, }', { "content-type": "application/x-ndjson" });
    expect(syntax.json().error).toMatchObject({ code: "invalid_ndjson" });
    expect(syntax.json().error.message).toMatch(/^Line 1, column 14: invalid JSON/);
    expect(await runState("live-bad")).toMatchObject({ total: 0 });
  });

  it("answers 404 for results sent to a run that was never opened", async () => {
    const res = await post("/v1/ingest/runs/nope-1/results", [{ name: "x", status: "passed" }]);
    expect(res.statusCode).toBe(404);
    expect(res.json().error.message).toContain("Open it first with POST /v1/ingest/runs");
  });

  it("answers 404 for a file attached to an unknown result, storing no object", async () => {
    await post("/v1/ingest/runs", { run_key: "live-3" });
    const res = await attachPng(app, "live-3", "missing");
    expect(res.statusCode).toBe(404);
  });

  it("refuses every live route without a token", async () => {
    for (const url of [
      "/v1/ingest/runs",
      "/v1/ingest/runs/live-1/results",
      "/v1/ingest/runs/live-1/finish",
    ]) {
      const res = await app.inject({ method: "POST", url, payload: {} });
      expect(res.statusCode, url).toBe(401);
    }
  });
});
