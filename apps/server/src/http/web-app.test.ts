import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, type TestApp } from "../../test/build-test-app.js";
import { createTestDatabase, type TestDatabase } from "../../test/test-database.js";
import { temporaryFolder } from "../../test/temporary-folder.js";
import { appModeFor } from "./web-app.js";

// The shape of the index.html that Vite builds from apps/web/index.html.
const INDEX = `<!doctype html><html><head><meta name="assay-mode" content="full" /></head><body><div id="root"></div></body></html>`;

let database: TestDatabase;
let built: TestApp;
let unbuilt: TestApp;

const dist = temporaryFolder("assay-dist-");

beforeAll(async () => {
  writeFileSync(path.join(dist, "index.html"), INDEX);
  mkdirSync(path.join(dist, "assets"));
  writeFileSync(path.join(dist, "assets", "index-abc123.js"), "export {};");
  database = await createTestDatabase();
  built = await buildTestApp(database.db, {
    webDistDir: dist,
    env: { ASSAY_DATA_HARMONIZATION_HOSTS: "^data\\.example\\.com$" },
  });
  unbuilt = await buildTestApp(database.db, { webDistDir: path.join(dist, "missing") });
});
afterAll(async () => {
  await built.app.close();
  await unbuilt.app.close();
  await database.drop();
});

describe("serving the web app", () => {
  it.each(["/", "/dashboard", "/test_runs/run-1/42", "/print/run-1/42", "/no/such/page"])(
    "answers the page path %s with index.html in full mode",
    async (url) => {
      const res = await built.app.inject({
        method: "GET",
        url,
        headers: { host: "assay.example.com" },
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers["content-type"]).toBe("text/html; charset=utf-8");
      expect(res.headers["cache-control"]).toBe("no-cache");
      expect(res.body).toContain('<meta name="assay-mode" content="full" />');
    },
  );

  it("writes data-harmonization mode into the page for a matching host, on any path", async () => {
    for (const url of ["/", "/builds", "/data"]) {
      const res = await built.app.inject({
        method: "GET",
        url,
        headers: { host: "data.example.com:8080" },
      });
      expect(res.body).toContain('<meta name="assay-mode" content="data-harmonization" />');
    }
  });

  it("never sends index.html unrewritten", async () => {
    const res = await built.app.inject({
      method: "GET",
      url: "/index.html",
      headers: { host: "data.example.com" },
    });
    expect(res.body).toContain('content="data-harmonization"');
  });

  it("serves hashed assets with long caching", async () => {
    const res = await built.app.inject({ method: "GET", url: "/assets/index-abc123.js" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
  });

  it("answers a missing asset and unknown API paths with a JSON 404, not the page", async () => {
    for (const url of ["/assets/nope.js", "/v1/nope", "/docs/nope"]) {
      const res = await built.app.inject({ method: "GET", url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json().error.code).toBe("not_found");
    }
  });

  it("says how to build the web app when it is missing", async () => {
    const res = await unbuilt.app.inject({ method: "GET", url: "/dashboard" });
    expect(res.statusCode).toBe(503);
    expect(res.body).toContain("Run <code>npm run build</code>");
  });
});

describe("appModeFor", () => {
  it("ignores the port and letter case, and is full without a pattern", () => {
    expect(appModeFor("DATA.example.com:443", /^data\.example\.com$/)).toBe("data-harmonization");
    expect(appModeFor("evil-data.example.com", /^data\.example\.com$/)).toBe("full");
    expect(appModeFor("data.example.com", undefined)).toBe("full");
  });
});
