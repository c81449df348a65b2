import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp } from "../../../test/build-test-app.js";
import { createTestDatabase, type TestDatabase } from "../../../test/test-database.js";
import { fixturePart, TEST_INGEST_TOKEN, upload } from "../../../test/upload.js";

/** The run report as one HTML file: a download, self-contained, with every test, steps and errors. */

let database: TestDatabase;
let app: FastifyInstance;

beforeAll(async () => {
  database = await createTestDatabase();
  app = (
    await buildTestApp(database.db, {
      env: { ASSAY_INGEST_TOKEN: TEST_INGEST_TOKEN },
      startWorkers: false,
    })
  ).app;
  const res = await upload(app, [fixturePart("cucumber", "cucumber-report.json")], {
    family: "frontend",
    run_key: "report-1",
    test_run_name: "Nightly <UI>",
  });
  expect(res.statusCode).toBe(201);
}, 120_000);

afterAll(async () => {
  await app?.close();
  await database?.drop();
});

describe("GET /v1/test-runs/{key}/report.html", () => {
  it("answers one self-contained HTML file with counts, failures, every test's steps and errors", async () => {
    const res = await app.inject({ method: "GET", url: "/v1/test-runs/report-1/report.html" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(res.headers["content-disposition"]).toBe('attachment; filename="assay-report-1.html"');
    const body = res.body;
    // Nothing to fetch: no script, no link, no external source.
    expect(body).not.toMatch(/<script|<link|src="http/);
    expect(body).toContain("<title>Nightly &lt;UI&gt; — Assay run report</title>");
    const details = body.match(/<details /g) ?? [];
    const failures = Number(/<h2>Failures \((\d+)\)<\/h2>/.exec(body)?.[1]);
    const every = Number(/<h2>Every test \((\d+)\)<\/h2>/.exec(body)?.[1]);
    expect(every).toBeGreaterThan(0);
    expect(details).toHaveLength(every + failures);
    expect(body).toMatch(/<ol><li class="s">✓ /);
    expect(failures).toBeGreaterThan(0);
    expect(body).toMatch(/<details class="failed"><summary><b>✗ failed<\/b>.*<pre>\S/s);
  });

  it("answers 404 in words for an unknown run", async () => {
    const res = await app.inject({ method: "GET", url: "/v1/test-runs/nope/report.html" });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.message).toBe("No run with key nope.");
  });
});
