import { existsSync } from "node:fs";
import path from "node:path";
import { FIRST_SCREEN_READ_ID } from "@assay/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, type TestApp } from "../../test/build-test-app.js";
import { insertResult, insertRun, insertTest } from "../../test/factories.js";
import { createTestDatabase, type TestDatabase } from "../../test/test-database.js";
import { WEB_DIST_DIR } from "./web-app.js";

/*
 * A page opened at a run's results dialog comes with the dialog's first screen rendered by the
 * built web app's server entry (apps/web/dist-ssr, made by `npm run build`), from the same reads
 * the page makes, with the visitor's credentials; any other page, or a read that fails, gets
 * index.html as it is.
 */

const HOSTILE_TITLE = `Login </script><script>alert(1)</script> costs $& and $1`;

let database: TestDatabase;
let open: TestApp;
let guarded: TestApp;

beforeAll(async () => {
  if (!existsSync(path.join(WEB_DIST_DIR, "..", "dist-ssr", "first-screen.js"))) {
    throw new Error("The web app is not built: run `npm run build` first (npm test does).");
  }
  database = await createTestDatabase();
  const run = await insertRun(database.db, { test_run_key: "fs-run", family: "frontend" });
  const plain = await insertTest(database.db, { title: "Checkout works" });
  const hostile = await insertTest(database.db, { title: HOSTILE_TITLE });
  await insertResult(database.db, run, plain, { test_run_test_id: "checkout#0", status: "passed" });
  await insertResult(database.db, run, hostile, {
    test_run_test_id: "login#0",
    status: "failed",
    error_message: "expected </script> to be gone",
  });
  open = await buildTestApp(database.db, { webDistDir: WEB_DIST_DIR });
  guarded = await buildTestApp(database.db, {
    webDistDir: WEB_DIST_DIR,
    env: { ASSAY_READ_ACCESS: "signed-in" },
  });
});
afterAll(async () => {
  await open.app.close();
  await guarded.app.close();
  await database.drop();
});

const page = (app: TestApp, url: string, host = "assay.example.com") =>
  app.app.inject({ method: "GET", url, headers: { host } });

/** The answers the page carries for the app to take the rendered HTML over with. */
function servedAnswers(html: string): unknown[] | undefined {
  const pattern = new RegExp(
    `<script type="application/json" id="${FIRST_SCREEN_READ_ID}">(.*?)</script>`,
  );
  const json = pattern.exec(html)?.[1];
  return json === undefined ? undefined : (JSON.parse(json) as { bodies: unknown[] }).bodies;
}

describe("the first screen of a run's results dialog", () => {
  it("is rendered into the page with its styles and the answers it was rendered from", async () => {
    const res = await page(open, "/test_runs/fs-run?hide=");
    expect(res.statusCode).toBe(200);
    expect(res.headers["cache-control"]).toBe("private, no-cache");
    const root = /<div id="root">(.*)<\/div><script type="application\/json"/s.exec(res.body)?.[1];
    expect(root).toContain('role="feed"');
    expect(root).toContain('aria-label="Results"');
    expect(root).toContain("Checkout works");
    expect(root).toContain("Showing <!-- -->2<!-- --> of <!-- -->2<!-- --> results");
    expect(res.body).toMatch(/<style data-emotion="css [^"]+">[^<]+<\/style><\/head>/);
    const [view, catalog, tags] = servedAnswers(res.body) ?? [];
    expect(view).toMatchObject({ run: { test_run_key: "fs-run" }, total: 2, shown: 2 });
    expect(catalog).toHaveProperty("ticketPattern");
    expect(tags).toEqual((await open.app.inject({ method: "GET", url: "/v1/dtag" })).json());
  });

  it("travels compressed to a browser that accepts it", async () => {
    const res = await open.app.inject({
      method: "GET",
      url: "/test_runs/fs-run?hide=",
      headers: { host: "assay.example.com", "accept-encoding": "br, gzip" },
    });
    expect(res.headers["content-encoding"]).toBe("br");
    expect(res.rawPayload.length).toBeLessThan(
      Buffer.byteLength((await page(open, "/test_runs/fs-run?hide=")).body) / 4,
    );
  });

  it("is the same read as the page's own: the Backend dialog's first page", async () => {
    await insertRun(database.db, { test_run_key: "fs-api", family: "backend" });
    const res = await page(open, "/test_runs/fs-api?be=1");
    const [view] = servedAnswers(res.body) ?? [];
    const own = await open.app.inject({
      method: "GET",
      url: "/v1/api-test-run/fs-api/view?offset=0&limit=60",
    });
    expect(view).toEqual(own.json());
  });

  it("keeps a test's name text: no script ends early and no replacement pattern is expanded", async () => {
    const res = await page(open, "/test_runs/fs-run?hide=");
    expect(res.body).not.toContain("<script>alert(1)</script>");
    expect(res.body).toContain("costs $&amp; and $1");
    const [view] = servedAnswers(res.body) ?? [];
    expect(JSON.stringify(view)).toContain(HOSTILE_TITLE);
  });

  it("is not rendered when the read does not answer: the page renders alone", async () => {
    const res = await page(open, "/test_runs/no-such-run?hide=");
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<div id="root"></div>');
    expect(servedAnswers(res.body)).toBeUndefined();
    expect(res.headers["cache-control"]).toBe("no-cache");
  });

  it("is not rendered for a visitor who may not read the run", async () => {
    const res = await page(guarded, "/test_runs/fs-run?hide=");
    expect(res.body).not.toContain("Checkout works");
    expect(servedAnswers(res.body)).toBeUndefined();
  });

  it.each(["/test_runs", "/dashboard", "/test_runs/fs-run?load=1"])(
    "is not rendered for %s, which opens no results dialog",
    async (url) => {
      const res = await page(open, url);
      expect(res.body).toContain('<div id="root"></div>');
    },
  );

  it("is not rendered on a data-harmonization host", async () => {
    const dh = await buildTestApp(database.db, {
      webDistDir: WEB_DIST_DIR,
      env: { ASSAY_DATA_HARMONIZATION_HOSTS: "^data\\.example\\.com$" },
    });
    try {
      const res = await page(dh, "/test_runs/fs-run?hide=", "data.example.com");
      expect(res.body).toContain('<div id="root"></div>');
    } finally {
      await dh.app.close();
    }
  });
});
