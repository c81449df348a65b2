import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, type TestApp } from "../../test/build-test-app.js";
import { createTestDatabase, type TestDatabase } from "../../test/test-database.js";
import { attachPng, fixturePart, TEST_INGEST_TOKEN, TINY_PNG, upload } from "../../test/upload.js";
import { insertUser } from "../modules/users/users.repo.js";

/**
 * Issue 33: a NUL byte in a path, query or body reached PostgreSQL and came back as a 500. One
 * hook refuses it everywhere with a 400; uploads (multipart) and binary bodies are untouched.
 */

let database: TestDatabase;
let built: TestApp;
const ingest = { authorization: `Bearer ${TEST_INGEST_TOKEN}` };

beforeAll(async () => {
  database = await createTestDatabase();
  const row = await insertUser(database.db.kysely, {
    email: "nul@example.com",
    name: "Nul Tester",
    passwordHash: "x",
    admin: false,
  });
  const user = {
    kind: "user" as const,
    id: Number(row.id),
    email: "nul@example.com",
    name: "Nul Tester",
    admin: false,
  };
  built = await buildTestApp(database.db, {
    env: { ASSAY_INGEST_TOKEN: TEST_INGEST_TOKEN },
    resolvePrincipal: async (request) =>
      request.headers.authorization
        ? { kind: "service_token", name: "ci", scopes: ["ingest"] }
        : user,
  });
  await built.app.ready();
});

afterAll(async () => {
  await built?.app.close();
  await database?.drop();
});

const runCount = async () =>
  Number((await database.db.pool.query("SELECT count(*) AS n FROM runs")).rows[0].n);

describe("control characters", () => {
  it.each([
    "/v1/test-runs/%00",
    "/v1/test-detail/%00/x",
    "/v1/api-test-run/%00",
    "/v1/load-test-runs/%00",
    "/v1/dh/report/legacy/sql/%00",
    "/v1/history/%00",
    "/v1/test-runs?name=a%00b",
    "/v1/test-runs?na%0Ame=1",
    "/v1/test-runs/run%0D%0Ax",
    "/test_runs/%00",
  ])("GET %s is a 400 in words", async (url) => {
    const res = await built.app.inject({ method: "GET", url });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe("control_character");
    expect(res.json().error.message).toMatch(/control character .* remove it/);
  });

  it("refuses a NUL in a JSON body, names included, and stores nothing", async () => {
    const before = await runCount();
    for (const payload of [
      { run_key: "nul-run", name: "a\u0000b" },
      { run_key: "nul-run", "na\u0000me": "x" },
      { run_key: "nul-run", tags: ["ok", "b\u0000"] },
    ]) {
      const res = await built.app.inject({
        method: "POST",
        url: "/v1/ingest/runs",
        headers: ingest,
        payload,
      });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error.code).toBe("control_character");
    }
    expect(await runCount()).toBe(before);
    const me = await built.app.inject({
      method: "PUT",
      url: "/v1/me",
      payload: { name: "Nul\u0000Tester" },
    });
    expect(me.statusCode).toBe(400);
    const after = await built.app.inject({ method: "GET", url: "/v1/me" });
    expect(after.json().name).toBe("Nul Tester");
  });

  it("keeps line breaks and tabs in body text, and uploads and binary bodies working", async () => {
    const opened = await built.app.inject({
      method: "POST",
      url: "/v1/ingest/runs",
      headers: ingest,
      payload: { run_key: "text-run", name: "Line one\nline two\tand a tab" },
    });
    expect(opened.statusCode).toBe(201);
    const results = await built.app.inject({
      method: "POST",
      url: "/v1/ingest/runs/text-run/results",
      headers: ingest,
      payload: [
        {
          test_run_test_id: "t1",
          test_id: 1,
          name: "A test",
          status: "failed",
          error_message: "Expected\n\tgot \u001b[31mred",
        },
      ],
    });
    expect(results.statusCode, results.body).toBe(200);
    const testRunTestId = "t1";
    // A PNG holds NUL bytes: multipart files are not the body hook's to read.
    expect(TINY_PNG.includes(0)).toBe(true);
    expect((await attachPng(built.app, "text-run", testRunTestId)).statusCode).toBe(201);
    const uploaded = await upload(
      built.app,
      [fixturePart("junit", "TEST-com.example.CartTest.xml")],
      { run_key: "upload-run" },
    );
    expect(uploaded.statusCode).toBe(201);
    const picture = await built.app.inject({
      method: "PUT",
      url: "/v1/me/picture",
      headers: { "content-type": "image/png" },
      payload: TINY_PNG,
    });
    expect(picture.statusCode).toBe(200);
  });
});
