import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, type TestApp } from "../test/build-test-app.js";
import { createTestDatabase, type TestDatabase } from "../test/test-database.js";

let database: TestDatabase;
let testApp: TestApp;
let app: FastifyInstance;

beforeAll(async () => {
  database = await createTestDatabase();
  testApp = await buildTestApp(database.db);
  app = testApp.app;
  // A route that fails the way a bug would, to see what the client is (not) told.
  app.get("/v1/test-only/boom", async () => {
    throw new Error("secret internals: password=hunter2 at /srv/assay/db.ts:42");
  });
});
afterAll(async () => {
  await app.close();
  await database.drop();
});

describe("health", () => {
  it("answers /healthz while the process is up", async () => {
    const res = await app.inject({ method: "GET", url: "/healthz" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: "ok" });
  });

  it("answers /readyz 200 with the number of migrations when migrated", async () => {
    const res = await app.inject({ method: "GET", url: "/readyz" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: "ready", database: { migrations: expect.any(Number) } });
    expect(res.json().database.migrations).toBeGreaterThan(0);
  });

  it("answers /readyz 503 when the database is not migrated", async () => {
    const empty = await createTestDatabase({ migrated: false });
    // No job handlers: they read tables that an unmigrated database does not have yet (a real
    // start migrates before it builds the app).
    const other = await buildTestApp(empty.db, { startWorkers: false });
    try {
      const res = await other.app.inject({ method: "GET", url: "/readyz" });
      expect(res.statusCode).toBe(503);
      expect(res.json().error).toEqual({
        code: "database_not_migrated",
        message: "The database is not fully migrated yet.",
      });
    } finally {
      await other.app.close();
      await empty.drop();
    }
  });
});

describe("catalogue", () => {
  it("serves the configured catalogue", async () => {
    const res = await app.inject({ method: "GET", url: "/v1/catalog" });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.sites.legacy.at(-1)).toEqual({ value: "other", label: "Other" });
    expect(body.footer).toEqual(testApp.config.catalog.footer);
    expect(
      body.testSubsets.legacy.map((s: { name: string; count: number }) => [s.name, s.count]),
    ).toEqual(
      expect.arrayContaining([
        ["Smoke Test", 19],
        ["Security Matrix", 90],
        ["Patient Interaction", 150],
      ]),
    );
  });
});

describe("errors", () => {
  it("answers an unknown API path with the JSON error format", async () => {
    const res = await app.inject({ method: "GET", url: "/v1/no-such-thing" });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({
      error: {
        code: "not_found",
        message: "No route GET /v1/no-such-thing. The API is described at /docs.",
      },
    });
  });

  it("hides a bug's internals from the client and logs them with the request id", async () => {
    const res = await app.inject({ method: "GET", url: "/v1/test-only/boom" });
    expect(res.statusCode).toBe(500);
    const body = res.json();
    expect(body.error.code).toBe("internal_error");
    expect(res.body).not.toMatch(/secret|hunter2|db\.ts/);
    const line = testApp.logs.find((l) => l.msg === "request failed");
    expect(line?.reqId).toBeDefined();
    expect(body.error.message).toContain(String(line?.reqId));
  });
});

describe("OpenAPI", () => {
  it("describes the routes from their schemas at /docs/json", async () => {
    const res = await app.inject({ method: "GET", url: "/docs/json" });
    expect(res.statusCode).toBe(200);
    const spec = res.json();
    expect(spec.openapi).toMatch(/^3\./);
    expect(Object.keys(spec.paths)).toEqual(
      expect.arrayContaining(["/healthz", "/readyz", "/v1/catalog"]),
    );
  });

  it("serves the documentation page at /docs", async () => {
    const res = await app.inject({ method: "GET", url: "/docs/" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/text\/html/);
    expect(res.body).toContain("swagger");
    // Swagger UI sets inline styles; scripts stay 'self' only.
    const csp = String(res.headers["content-security-policy"]);
    expect(csp).toMatch(/style-src [^;]*'unsafe-inline'/);
    expect(csp).toMatch(/script-src 'self'\s*;/);
    expect(csp).not.toContain("upgrade-insecure-requests");
  });
});

describe("security headers", () => {
  it("sends a strict policy on API answers and pages", async () => {
    for (const url of ["/v1/catalog", "/dashboard"]) {
      const res = await app.inject({ method: "GET", url });
      const csp = String(res.headers["content-security-policy"]);
      expect(csp).toContain("default-src 'self'");
      expect(csp).toMatch(/script-src 'self'(;|$)/);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(res.headers["x-content-type-options"]).toBe("nosniff");
      expect(res.headers["referrer-policy"]).toBe("no-referrer");
    }
  });
});
