import { BackendRunDetailSchema, FrontendRunDetailSchema } from "@assay/core";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp } from "../../../test/build-test-app.js";
import {
  insertAttachment,
  insertResult,
  insertRun,
  insertTest,
  tagTest,
} from "../../../test/factories.js";
import { createTestDatabase, type TestDatabase } from "../../../test/test-database.js";
import { iso } from "./runs.mappers.js";
import * as results from "./results.repo.js";
import * as repo from "./runs.repo.js";
import { RunDetailCache } from "./run-detail-cache.js";
import { getBackendRun, getFrontendRun } from "./runs.service.js";

/*
 * The run details are sent as the services build them, without zod's response check
 * (sent-as-built.ts). These tests keep what that check guaranteed: each answer is byte for byte
 * what zod's serializer makes of it (valid, the schema's keys only, in the schema's order), and
 * the timestamps PostgreSQL formats are the ones Date.toISOString gave before.
 */

let database: TestDatabase;
let app: FastifyInstance;

// Microseconds (truncated, never rounded), offsets, nulls, and text that JSON and PostgreSQL
// arrays must escape: quotes, commas, braces, backslashes, "NULL", unicode.
const TIMES = [
  ["2025-06-01T10:00:00Z", "2025-06-01T10:00:01.5Z"],
  ["2025-06-01T10:00:00.123456Z", "2025-06-01T10:00:00.999999Z"],
  ["2025-06-01T12:00:00.0005+02:00", "1999-12-31T23:59:59.9999-05:30"],
  [null, null],
  ["2025-06-01T10:00:00.1Z", null],
] as const;
const ODD_TAGS = ['with "quotes"', "a,b", "{braces}", "back\\slash", "NULL", "", "ünï 🚀", "a b"];

beforeAll(async () => {
  database = await createTestDatabase();
  app = (await buildTestApp(database.db)).app;
  const db = database.db;

  const run = await insertRun(db, { test_run_key: "f-shape", total: 6, failed: 3, pending: 1 });
  const tests = await Promise.all(
    ["ä test", "b", "c", "d", "e"].map((title) => insertTest(db, { title })),
  );
  for (const [i, [start, end]] of TIMES.entries()) {
    const result = await insertResult(db, run, tests[i]!, {
      name: `naïve “name” ${i}\n\t\\`,
      status: i === 0 ? "passed" : "failed",
      error_message: [null, "Broken: see NXL-12 and nxl-7", "Pending reason == NXL-9", null][i],
      tags: i === 1 ? ODD_TAGS : [],
      start_time: start,
      end_time: end,
      duration_ms: i * 0.25,
      nora_site: i === 2 ? null : "dev1.example.com",
      platform: "linux",
    });
    // The last image is the screenshot; a later non-image attachment does not count.
    if (i === 1) {
      await insertAttachment(db, result, { object_key: "objects/first.png" });
      await insertAttachment(db, result, { object_key: "objects/last.png" });
      await insertAttachment(db, result, {
        object_key: "objects/log.txt",
        content_type: "text/plain",
      });
    }
  }
  // A retry: both attempts are listed, in report order.
  await insertResult(db, run, tests[4]!, { status: "passed", attempt: 1, flaky: true });
  await tagTest(db, "@unstable", tests[3]!);

  const api = await insertRun(db, { test_run_key: "b-shape", family: "backend" });
  const apiTest = await insertTest(db, { family: "backend" });
  await insertResult(db, api, apiTest, {
    status: "failed",
    error_stack: "Error\n    at x.spec.ts:1:1",
    tags: ODD_TAGS,
    start_time: TIMES[1][0],
  });
  await insertResult(db, api, apiTest, { status: "passed", attempt: 1, body: "it('ü', …)" });
});
afterAll(async () => {
  await app.close();
  await database.drop();
});

describe("run details sent as built", () => {
  it("answers the frontend run exactly as zod's serializer would", async () => {
    const res = await app.inject({ method: "GET", url: "/v1/test-runs/f-shape" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(res.body).toBe(JSON.stringify(FrontendRunDetailSchema.parse(res.json())));
    const body = res.json();
    expect(body.results).toHaveLength(6);
    expect(body.results[1]).toMatchObject({
      tags: ODD_TAGS,
      screenshot: "objects/last.png",
      tickets: ["NXL-12", "NXL-7"],
      derived_status: "failed",
    });
    expect(body.results[2]).toMatchObject({ derived_status: "skipped", pending_reason: "NXL-9" });
    expect(body.results[3]).toMatchObject({ derived_status: "unstable", start_time: null });
    expect(body.run).toMatchObject({ failed: 2, unstable: 1 });
  });

  it("formats timestamps as Date.toISOString did, and keeps report order", async () => {
    const body = (await app.inject({ method: "GET", url: "/v1/test-runs/f-shape" })).json();
    const ids = body.results.map((r: { id: number }) => r.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    const run = await repo.findRun(database.db, "frontend", "f-shape");
    const times = [];
    for (const result of body.results) {
      // findResult reads the columns as node-postgres Dates: the way the run detail used to.
      const row = await results.findResult(database.db, run!.id, result.test_run_test_id);
      times.push([iso(row!.start_time), iso(row!.end_time)]);
      expect([result.start_time, result.end_time]).toEqual(times.at(-1));
    }
    expect(times.slice(0, 5)).toEqual([
      ["2025-06-01T10:00:00.000Z", "2025-06-01T10:00:01.500Z"],
      ["2025-06-01T10:00:00.123Z", "2025-06-01T10:00:00.999Z"],
      ["2025-06-01T10:00:00.000Z", "2000-01-01T05:29:59.999Z"],
      [null, null],
      ["2025-06-01T10:00:00.100Z", null],
    ]);
  });

  it("answers the backend run exactly as zod's serializer would", async () => {
    const res = await app.inject({ method: "GET", url: "/v1/api-test-run/b-shape" });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(JSON.stringify(BackendRunDetailSchema.parse(res.json())));
    expect(res.json().results[0]).toMatchObject({
      tags: ODD_TAGS,
      error_message: { name: null, message: null, stack: "Error\n    at x.spec.ts:1:1" },
    });
  });

  it("answers a run too large to keep with the same JSON, in pieces", async () => {
    const ctx = { db: database.db, ticketPattern: "NXL-\\d+" };
    // A cache that keeps nothing of this size: the answer comes in pieces (send-detail.ts).
    const tiny = new RunDetailCache(100);
    const frontend = await getFrontendRun(ctx, "f-shape", tiny);
    const backend = await getBackendRun(ctx, "b-shape", tiny);
    for (const [answer, url] of [
      [frontend, "/v1/test-runs/f-shape"],
      [backend, "/v1/api-test-run/b-shape"],
    ] as const) {
      expect(Array.isArray(answer.body)).toBe(true);
      const whole = await app.inject({ method: "GET", url });
      expect((answer.body as string[]).join("")).toBe(whole.body);
    }
  });

  it("still documents both answers in OpenAPI", async () => {
    const spec = (await app.inject({ method: "GET", url: "/docs/json" })).json();
    for (const path of ["/v1/test-runs/{key}", "/v1/api-test-run/{key}"]) {
      const ok = spec.paths[path].get.responses["200"].content["application/json"].schema;
      expect(Object.keys(ok.properties), path).toEqual(["run", "warnings", "results"]);
      expect(ok.properties.results.items.required, path).toContain("start_time");
    }
  });

  it("still sends error bodies through the schema", async () => {
    for (const url of ["/v1/test-runs/nope", "/v1/api-test-run/nope"]) {
      const res = await app.inject({ method: "GET", url });
      expect(res.statusCode).toBe(404);
      expect(Object.keys(res.json())).toEqual(["error"]);
    }
  });
});
