import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type {} from "@fastify/cookie";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, TEST_SECRET_KEY, type TestApp } from "../../../test/build-test-app.js";
import { insertRunningBuild } from "../../../test/running-build.js";
import { createTestDatabase, type TestDatabase } from "../../../test/test-database.js";
import { createToken } from "../tokens/tokens.service.js";
import { BUILD_TOKEN_ROUTES, type Access } from "./access.js";
import { authKeys } from "./auth.setup.js";
import { createSession } from "./sessions.service.js";

/**
 * Every route of the server and its access rule, asserted in both read modes with no
 * credential, an ingest token, an admin token, a build's own token and a signed-in user's
 * session. A route added without an entry here (or missing from the OpenAPI document) fails the
 * test, so nothing new is left open by accident.
 */

const EXPECTED: Record<string, Access> = {
  "GET /": "page",
  "GET /favicon.svg": "open",
  "GET /assets/app-abc123.js": "open",
  "GET /healthz": "open",
  "GET /readyz": "open",
  "GET /docs": "read",
  "GET /docs/json": "read",
  "GET /docs/yaml": "read",
  "GET /docs/static/*": "read",
  "GET /docs/static/index.html": "read",
  "GET /docs/static/swagger-initializer.js": "read",
  "GET /oidc/*": "open",
  "POST /oidc/*": "open",
  "OPTIONS /oidc/*": "open",
  "GET /oidc/interaction/:uid": "open",
  "POST /oidc/interaction/:uid": "open",
  "GET /oidc/assets/sign-in.css": "open",
  "GET /oidc/assets/sign-out.js": "open",
  "GET /.well-known/oauth-authorization-server/oidc": "open",
  "GET /auth/login": "open",
  "GET /auth/callback": "open",
  "GET /auth/handoff": "open",
  "POST /auth/logout": "open",
  "GET /v1/me": "identify",
  "PUT /v1/me": "user",
  "PUT /v1/me/picture": "user",
  "GET /v1/catalog": "read",
  "GET /v1/instance": "read",
  "GET /v1/objects/*": "read",
  "POST /v1/ingest/reports": "ingest",
  "POST /v1/ingest/runs": "ingest",
  "POST /v1/ingest/runs/:key/results": "ingest",
  "POST /v1/ingest/runs/:key/results/:test_run_test_id/attachments": "ingest",
  "POST /v1/ingest/runs/:key/finish": "ingest",
  "GET /v1/test-runs": "read",
  "GET /v1/test-runs/": "read",
  "GET /v1/test-runs/:key": "read",
  "GET /v1/test-runs/:key/history": "read",
  "GET /v1/test-runs/:key/view": "read",
  "GET /v1/test-runs/:key/report.html": "read",
  "GET /v1/test-detail/:key/:id": "read",
  "GET /v1/api-test-runs": "read",
  "GET /v1/api-test-runs/": "read",
  "GET /v1/api-test-run/:key": "read",
  "GET /v1/api-test-run/:key/": "read",
  "GET /v1/api-test-run/:key/view": "read",
  "GET /v1/api-test-detail/:key/:id": "read",
  "GET /v1/api-test-run/api-log/:key": "read",
  "GET /v1/load-test-runs": "read",
  "GET /v1/load-test-runs/": "read",
  "GET /v1/load-test-runs/:key": "read",
  "GET /v1/load-test-runs/:key/trends": "read",
  "GET /v1/runs/:a/diff/:b": "read",
  "GET /v1/runs/:key/previous": "read",
  "GET /v1/history/:id": "read",
  "GET /v1/fails": "read",
  "GET /v1/test-aliases": "read",
  "POST /v1/test-aliases": "user",
  "POST /v1/test-aliases/:id/undo": "user",
  "GET /v1/test-aliases/suggestions": "read",
  "POST /v1/test-aliases/suggestions/:id/confirm": "user",
  "POST /v1/test-aliases/suggestions/:id/dismiss": "user",
  "GET /v1/dtag": "read",
  "POST /v1/dtag": "user",
  "POST /v1/dtag/": "user",
  "POST /v1/dtag/:id/restore": "user",
  "PUT /v1/dtag/:id/test/:testId": "user",
  "DELETE /v1/dtag/:id": "user",
  "DELETE /v1/tagged_test/:id": "user",
  "GET /v1/runs/:key/failure-groups": "read",
  "GET /v1/runs/:key/failure-causes": "read",
  "PUT /v1/runs/:key/defect": "user",
  "GET /v1/failure-groups": "read",
  "GET /v1/failure-groups/:id": "read",
  "PUT /v1/results/:id/defect": "user",
  "PUT /v1/runs/:key/failure-groups/:id/defect": "user",
  "PUT /v1/failure-groups/:id/defect": "user",
  "GET /v1/runs/:key/gate": "ingest",
  "GET /v1/flaky-tests": "read",
  "GET /v1/flaky-tests/summary": "read",
  "GET /v1/flaky-tests/:testId": "read",
  "GET /v1/traceability-matrix": "read",
  "GET /v1/traceability-matrix/export.csv": "read",
  "GET /v1/traceability/test-history": "read",
  "PUT /v1/traceability/rms/:id": "user",
  "GET /v1/traceability/rms/:id/history": "read",
  "POST /v1/traceability/rms/import": "ingest",
  "POST /v1/traceability/rms/:id/links": "user",
  "DELETE /v1/traceability/rms/:id/links/:testId": "user",
  "GET /v1/traceability/rms/:id/links": "read",
  "GET /v1/builds": "read",
  "POST /v1/builds": "user",
  "GET /v1/china/builds": "read",
  "POST /v1/china/builds": "user",
  "GET /v1/api/builds": "read",
  "POST /v1/api/builds": "user",
  "GET /v1/load/builds": "read",
  "POST /v1/load/builds": "user",
  "GET /v1/builds/:id": "read",
  "GET /v1/builds/:id/log": "read",
  "POST /v1/builds/:id/stop": "user",
  "POST /v1/test-runs/:key/rerun": "user",
  "POST /v1/api-test-run/:key/rerun": "user",
  "GET /v1/dh/:platform/:type/:envType/environments": "read",
  "GET /v1/dh/getGlobalSchemaEnvironments/:platform/:schema": "read",
  "POST /v1/dh/runs": "user",
  "GET /v1/dh/runs": "read",
  "GET /v1/dh/runs/:id": "read",
  "GET /v1/dh/runs/:id/changes": "read",
  "GET /v1/dh/runs/:id/csv": "read",
  "GET /v1/dh/runs/:id/rows/:rowId/missing-rows": "read",
  "POST /v1/dh/runs/:id/rows/:rowId/missing-rows": "user",
  "GET /v1/dh/report/:platform/:type/:env": "read",
  "GET /v1/dh/nosql/getDocuments/:platform/:type/:env": "read",
  "GET /v1/dh/nosql/getBucketDocuments/:platform/:env": "read",
  "GET /v1/dh/nosql/getSFDCDocuments/:platform/:env": "read",
  "GET /v1/dh/nosql/getFHIREnvironmentTables/:platform": "read",
  "POST /v1/dh/nosql/getFHIRDocumentPaths/:platform/:env/:envType": "read",
  "POST /v1/dh/nosql/getSFDCDocumentData/:platform/:env/:envType": "read",
  "POST /v1/dh/nosql/getFHIRBucketData/:platform/:env/:envType": "read",
  "GET /v1/dh/queryGlobalData/:platform/:schema": "read",
  "GET /v1/dashboard/daily-runs": "read",
  "GET /v1/dashboard/rerun-runs": "read",
  "GET /v1/setting": "read",
  "POST /v1/setting": "user",
  "PUT /v1/setting/:id": "user",
  "DELETE /v1/setting/:id": "user",
  "POST /v1/setting/:id/run": "user",
  "GET /v1/notify/rules": "user",
  "POST /v1/notify/rules": "admin",
  "PUT /v1/notify/rules/:id": "admin",
  "DELETE /v1/notify/rules/:id": "admin",
  "GET /badge/:family.svg": "badge",
  "GET /v1/integrations": "read",
  "POST /v1/integrations/sync": "user",
  "POST /v1/jira/details": "read",
  "GET /v1/jira/release-versions": "read",
  "GET /v1/release-detail": "read",
  "GET /v1/retention": "read",
  "GET /v1/retention/tests/:id": "read",
  // Spira is asked with the signed-in user's own credentials (their profile).
  "GET /v1/spira/releases": "user",
};

/** A path of the OpenAPI document as Fastify wrote the route: {key} is :key, {*} is *. */
function openApiPath(url: string): string {
  return url.replace(/\{\*\}/g, "*").replace(/\{([^}]+)\}/g, ":$1");
}

const CALLERS = ["nobody", "ingest token", "admin token", "build token", "user"] as const;
type Caller = (typeof CALLERS)[number];
type Outcome = "allowed" | 401 | 403 | "sign-in redirect";

/** What each rule promises each caller, per read mode. */
function promised(
  route: string,
  access: Access,
  caller: Caller,
  mode: "public" | "signed-in",
): Outcome {
  if (caller === "build token") {
    // A build's token is let through the listed routes only; open routes and public pages ask
    // nobody for a credential, so it is not even looked at there.
    if (access === "open" || (access === "page" && mode === "public")) return "allowed";
    return BUILD_TOKEN_ROUTES.has(route) ? "allowed" : 403;
  }
  const token = caller === "ingest token" || caller === "admin token";
  switch (access) {
    case "open":
      return "allowed";
    case "identify":
      // GET /v1/me: nobody is an answer; a service token is no user to describe.
      return token ? 403 : "allowed";
    case "page":
      return mode === "signed-in" && caller === "nobody" ? "sign-in redirect" : "allowed";
    case "read":
    case "badge":
      // A badge is read; its token (badge.test.ts) is a way in that no caller here sends.
      return mode === "signed-in" && caller === "nobody" ? 401 : "allowed";
    case "ingest":
      return caller === "nobody" ? 401 : caller === "admin token" ? 403 : "allowed";
    case "user":
      return caller === "nobody" ? 401 : token ? 403 : "allowed";
    case "admin":
      return caller === "nobody" ? 401 : caller === "admin token" ? "allowed" : 403;
  }
}

const INGEST_TOKEN = "route-table-ingest-token-0123456789";
/** The build token's run: the key every ":key" of the walked routes is given. */
const BUILD_RUN_KEY = "x";
const bearers: Record<"admin token" | "build token", string> = {} as never;
const PUBLIC_URL = "http://assay.test";

let database: TestDatabase;
let distDir: string;
let userId: number;
const apps: Record<"public" | "signed-in", TestApp> = {} as never;

async function userHeaders(app: FastifyInstance): Promise<Record<string, string>> {
  const session = await createSession(
    {
      db: database.db.kysely,
      tokensKey: authKeys(Buffer.from(TEST_SECRET_KEY, "base64")).sessionTokens,
      idleMs: 60_000,
      maxMs: 60_000,
      refresh: () => Promise.reject(new Error("no refresh in this test")),
      log: app.log,
    },
    userId,
    { access_token: "unused" },
  );
  return {
    cookie: `assay_session=${app.signCookie(session.id)}`,
    origin: PUBLIC_URL,
    "x-csrf-token": session.csrfToken,
  };
}

async function outcomeOf(app: FastifyInstance, method: string, url: string, caller: Caller) {
  const headers =
    caller === "user"
      ? await userHeaders(app)
      : caller === "ingest token"
        ? { authorization: `Bearer ${INGEST_TOKEN}` }
        : caller === "nobody"
          ? {}
          : { authorization: `Bearer ${bearers[caller]}` };
  const concrete = url.replace(/:[A-Za-z_]+/g, "x").replace(/\*$/, "x");
  const res = await app.inject({ method: method as "GET", url: concrete, headers });
  if (res.statusCode === 401 || res.statusCode === 403) return res.statusCode;
  if (res.statusCode === 302 && String(res.headers.location).startsWith("/auth/login?")) {
    return "sign-in redirect";
  }
  return "allowed";
}

beforeAll(async () => {
  database = await createTestDatabase();
  distDir = await mkdtemp(path.join(tmpdir(), "assay-route-table-"));
  await mkdir(path.join(distDir, "assets"));
  await writeFile(
    path.join(distDir, "index.html"),
    '<!doctype html><meta name="assay-mode" content="full"><div id="root"></div>',
  );
  await writeFile(path.join(distDir, "assets", "app-abc123.js"), "export {};");
  await writeFile(path.join(distDir, "favicon.svg"), "<svg/>");
  const user = await database.db.kysely
    .insertInto("users")
    .values({ email: "route@example.com", name: "Route Tester" })
    .returning("id")
    .executeTakeFirstOrThrow();
  userId = user.id;
  bearers["admin token"] = (await createToken(database.db.kysely, "route-admin", ["admin"])).token;
  bearers["build token"] = await insertRunningBuild(database, BUILD_RUN_KEY, user.id);
  for (const mode of ["public", "signed-in"] as const) {
    apps[mode] = await buildTestApp(database.db, {
      webDistDir: distDir,
      env: {
        ASSAY_READ_ACCESS: mode,
        ASSAY_INGEST_TOKEN: INGEST_TOKEN,
        ASSAY_PUBLIC_URL: PUBLIC_URL,
      },
    });
    await apps[mode].app.ready();
  }
});

afterAll(async () => {
  for (const built of Object.values(apps)) await built?.app.close();
  await database?.drop();
  await rm(distDir, { recursive: true, force: true });
});

describe("the route table", () => {
  it("has exactly the routes of the expected map, each with its expected rule", () => {
    const actual = Object.fromEntries(
      apps.public.app.accessTable
        .filter((rule) => rule.method !== "HEAD")
        .map((rule) => [`${rule.method} ${rule.url}`, rule.access]),
    );
    expect(actual).toEqual(EXPECTED);
  });

  it("has a rule for every operation of the OpenAPI document, and the document every API route", async () => {
    const doc = (await apps.public.app.inject({ method: "GET", url: "/docs/json" })).json<{
      paths: Record<string, Record<string, unknown>>;
    }>();
    const documented = Object.entries(doc.paths).flatMap(([url, operations]) =>
      Object.keys(operations)
        .filter((method) => method !== "head")
        .map((method) => `${method.toUpperCase()} ${openApiPath(url)}`),
    );
    expect(documented.length).toBeGreaterThan(80);
    expect(documented.filter((route) => !(route in EXPECTED))).toEqual([]);
    const api = Object.keys(EXPECTED).filter((route) => / \/v1\//.test(route));
    // A trailing-slash twin ("GET /v1/test-runs/") is documented once, as its route without it.
    const undocumented = api.filter((route) => !documented.includes(route.replace(/\/$/, "")));
    expect(undocumented).toEqual([]);
  });

  it("lets a build's token through its own routes only", () => {
    const listed = [...BUILD_TOKEN_ROUTES];
    expect(listed.filter((route) => !(route in EXPECTED))).toEqual([]);
    // Sending results, and the reads a CI job makes of the run it sent (its diff and gate), and the
    // flaky list.
    expect(listed.every((route) => EXPECTED[route] === "ingest" || /^GET /.test(route))).toBe(true);
    expect(listed.filter((route) => route.startsWith("GET "))).toEqual([
      "GET /v1/runs/:a/diff/:b",
      "GET /v1/runs/:key/previous",
      "GET /v1/flaky-tests",
      "GET /v1/runs/:key/gate",
    ]);
    expect(listed).not.toContain("POST /v1/traceability/rms/import");
  });

  for (const mode of ["public", "signed-in"] as const) {
    it(`keeps every route's promise in ${mode} mode`, async () => {
      const app = apps[mode].app;
      const broken: string[] = [];
      for (const [route, access] of Object.entries(EXPECTED)) {
        const [method = "GET", url = "/"] = route.split(" ");
        for (const caller of CALLERS) {
          const expected = promised(route, access, caller, mode);
          const actual = await outcomeOf(app, method, url, caller);
          if (actual !== expected)
            broken.push(`${route} as ${caller}: ${actual}, expected ${expected}`);
        }
      }
      expect(broken).toEqual([]);
      // Five callers on every route: seconds alone, longer on a loaded machine.
    }, 180_000);
  }
});

describe("pages in signed-in mode", () => {
  it("sends every page path to sign-in with the way back, and serves the build files", async () => {
    const app = apps["signed-in"].app;
    const page = await app.inject({ method: "GET", url: "/test_runs/run-7/42?be=1" });
    expect(page.statusCode).toBe(302);
    expect(page.headers.location).toBe(
      `/auth/login?return_to=${encodeURIComponent("/test_runs/run-7/42?be=1")}`,
    );
    const asset = await app.inject({ method: "GET", url: "/assets/app-abc123.js" });
    expect(asset.statusCode).toBe(200);
    const unknownApi = await app.inject({ method: "GET", url: "/v1/unknown" });
    expect(unknownApi.statusCode).toBe(401);
  });

  it("serves the same page paths to anyone in public mode", async () => {
    const page = await apps.public.app.inject({ method: "GET", url: "/test_runs/run-7/42?be=1" });
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-type"]).toContain("text/html");
  });

  it("sends the security headers on pages and API answers", async () => {
    for (const url of ["/dashboard", "/v1/catalog", "/auth/callback"]) {
      const res = await apps.public.app.inject({ method: "GET", url });
      const csp = String(res.headers["content-security-policy"]);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toMatch(/script-src 'self'(;|$)/);
      expect(res.headers["referrer-policy"]).toBe("no-referrer");
      expect(res.headers["x-content-type-options"]).toBe("nosniff");
    }
  });
});
