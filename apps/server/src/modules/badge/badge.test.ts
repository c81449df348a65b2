import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp } from "../../../test/build-test-app.js";
import { createTestDatabase, type TestDatabase } from "../../../test/test-database.js";
import { fixturePart, upload } from "../../../test/upload.js";

/**
 * Badges: the latest run matching the filters, in words and colour, cached a minute; open in
 * public read mode, and in signed-in mode only with the badge token.
 */

const BADGE_TOKEN = "badge-token-0123456789abcdef";
let database: TestDatabase;
let open: FastifyInstance;
let closed: FastifyInstance;

beforeAll(async () => {
  database = await createTestDatabase();
  open = (
    await buildTestApp(database.db, {
      env: { ASSAY_READ_ACCESS: "public" },
      resolvePrincipal: async () => ({
        kind: "user",
        id: 1,
        email: "qa@example.com",
        name: "QA",
        admin: false,
      }),
    })
  ).app;
  closed = (
    await buildTestApp(database.db, {
      env: { ASSAY_READ_ACCESS: "signed-in", ASSAY_BADGE_TOKEN: BADGE_TOKEN },
      resolvePrincipal: async () => undefined,
      startWorkers: false,
    })
  ).app;
  const run = (file: string, fields: Record<string, string>) =>
    upload(open, [fixturePart("junit", file)], { family: "frontend", ...fields });
  // Oldest first: the badge shows the newest that matches.
  expect(
    (await run("jest-junit-nameless.xml", { branch: "main", nora_site: "stage" })).statusCode,
  ).toBe(201);
  expect((await run("jest-junit.xml", { branch: "main", nora_site: "prod" })).statusCode).toBe(201);
  expect(
    (await run("jest-junit-nameless.xml", { branch: "dev", test_run_name: "Smoke dev" }))
      .statusCode,
  ).toBe(201);
}, 120_000);

afterAll(async () => {
  await Promise.all([open?.close(), closed?.close()]);
  await database?.drop();
});

const get = (app: FastifyInstance, url: string) => app.inject({ method: "GET", url });

describe("GET /badge/{family}.svg", () => {
  it("shows the latest matching run's counts, red when it failed, with cache headers", async () => {
    const res = await get(open, "/badge/frontend.svg?branch=main");
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("image/svg+xml; charset=utf-8");
    expect(res.headers["cache-control"]).toBe("private, max-age=60");
    expect(res.body).toMatch(/^<svg /);
    expect(res.body).toMatch(/aria-label="frontend tests: \d+ passed, 2 failed"/);
    expect(res.body).toContain('fill="#e05d44"');
  });

  it("filters by site, name and branch; green when passed; pass rate on request", async () => {
    const stage = await get(open, "/badge/frontend.svg?branch=main&site=stage");
    expect(stage.headers["x-badge-state"]).toBe("passed");
    expect(stage.body).toContain('fill="#44cc11"');
    expect(stage.body).not.toContain("failed");
    const smoke = await get(open, "/badge/frontend.svg?name=SMOKE&show=rate&label=smoke");
    expect(smoke.body).toContain('aria-label="smoke: 100% passed"');
    const rate = await get(open, "/badge/frontend.svg?branch=main&show=rate");
    expect(rate.body).toMatch(/aria-label="frontend tests: \d+(\.\d)?% passed"/);
    const none = await get(open, "/badge/backend.svg");
    expect(none.body).toContain("no runs");
    expect(none.body).toContain('fill="#9f9f9f"');
  });

  it("refuses an unknown family or parameter in words", async () => {
    const res = await get(open, "/badge/mobile.svg");
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toContain("frontend, backend or load");
    expect((await get(open, "/badge/frontend.svg?colour=red")).statusCode).toBe(400);
  });

  it("needs the badge token when reading needs sign-in, and is not cached publicly then", async () => {
    expect((await get(closed, "/badge/frontend.svg")).statusCode).toBe(401);
    expect((await get(closed, "/badge/frontend.svg?token=wrong-token-0123456789")).statusCode).toBe(
      401,
    );
    const res = await get(closed, `/badge/frontend.svg?branch=main&token=${BADGE_TOKEN}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers["cache-control"]).toBe("private, max-age=60");
    expect(res.body).toContain("2 failed");
  });

  it("is public and publicly cacheable in public read mode without a session", async () => {
    const anonymous = (
      await buildTestApp(database.db, {
        env: { ASSAY_READ_ACCESS: "public" },
        resolvePrincipal: async () => undefined,
        startWorkers: false,
      })
    ).app;
    try {
      const res = await get(anonymous, "/badge/frontend.svg?branch=dev");
      expect(res.statusCode).toBe(200);
      expect(res.headers["cache-control"]).toBe("public, max-age=60");
    } finally {
      await anonymous.close();
    }
  });
});
