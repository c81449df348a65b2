import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp } from "../../../test/build-test-app.js";
import { createTestDatabase, type TestDatabase } from "../../../test/test-database.js";
import { attachPng, TEST_INGEST_TOKEN } from "../../../test/upload.js";

/*
 * The frontend run detail is kept serialized while it is current (RunDetailCache). Every way
 * what it shows can change must give a new ETag and a new body: results added, a screenshot
 * attached, the '@unstable' tag edited. force=true rebuilds it whatever is kept.
 */

let database: TestDatabase;
let app: FastifyInstance;
const auth = { authorization: `Bearer ${TEST_INGEST_TOKEN}` };

beforeAll(async () => {
  database = await createTestDatabase();
  ({ app } = await buildTestApp(database.db, { env: { ASSAY_INGEST_TOKEN: TEST_INGEST_TOKEN } }));
  const opened = await post("/v1/ingest/runs", { family: "frontend", run_key: "kept-1" });
  expect(opened.statusCode).toBe(201);
  await append([{ test_run_test_id: "a", name: "a", status: "failed", error_message: "boom" }]);
});
afterAll(async () => {
  await app.close();
  await database.drop();
});

function post(url: string, payload: unknown, headers: Record<string, string> = {}) {
  return app.inject({
    method: "POST",
    url,
    headers: { ...auth, ...headers },
    payload: payload as string,
  });
}

async function append(results: object[]) {
  const answer = await post("/v1/ingest/runs/kept-1/results", results);
  expect(answer.statusCode).toBe(200);
}

const detail = (headers: Record<string, string> = {}, query = "") =>
  app.inject({ method: "GET", url: `/v1/test-runs/kept-1${query}`, headers });

async function current(etag: string) {
  const answer = await detail({ "if-none-match": etag });
  expect(answer.statusCode).toBe(200);
  expect(answer.headers.etag).not.toBe(etag);
  return answer;
}

describe("kept run details", () => {
  it("answers 304 to its ETag, and a new ETag and body after each kind of change", async () => {
    const first = await detail();
    expect(first.statusCode).toBe(200);
    expect(first.headers["content-type"]).toMatch(/^application\/json/);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await detail({ "if-none-match": etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe("");
    // Weakened by a compressing proxy, or in a list: the same version (RFC 9110).
    expect((await detail({ "if-none-match": `W/${etag}` })).statusCode).toBe(304);
    expect((await detail({ "if-none-match": `"other", ${etag}` })).statusCode).toBe(304);
    expect((await detail()).body).toBe(first.body);

    // Results appended through the live API.
    await append([{ test_run_test_id: "b", name: "b", status: "passed" }]);
    const grown = await current(etag);
    expect(grown.json().results.map((r: { name: string }) => r.name)).toEqual(["a", "b"]);

    // A screenshot attached to a result.
    const attached = await attachPng(app, "kept-1", "a");
    expect(attached.statusCode).toBe(201);
    const shot = await current(grown.headers.etag as string);
    expect(shot.json().results[0].screenshot).toBe(attached.json().object_key);

    // The failing test put in '@unstable': its failure shows as unstable.
    const testId = shot.json().results[0].test_id as number;
    await database.db.pool.query(
      `INSERT INTO tagged_tests (tag_id, test_id) SELECT id, $1 FROM tags WHERE name = '@unstable'`,
      [testId],
    );
    const tagged = await current(shot.headers.etag as string);
    expect(tagged.json().results[0].derived_status).toBe("unstable");
    expect(tagged.json().run.unstable).toBe(1);
  });

  it("rebuilds the answer with force=true whatever is kept", async () => {
    const kept = await detail();
    // A change no Assay path makes (nothing touches the run's row): the kept answer stays...
    await database.db.pool.query(
      "UPDATE results SET name = 'renamed' WHERE test_run_test_id = 'b'",
    );
    expect((await detail()).body).toBe(kept.body);
    // ...until a client asks for it fresh.
    const fresh = await detail({}, "?force=true");
    expect(fresh.statusCode).toBe(200);
    expect(fresh.json().results.map((r: { name: string }) => r.name)).toContain("renamed");
    expect((await detail()).body).toBe(fresh.body);
  });
});

describe("kept backend run details", () => {
  it("answer 304 to their ETag like the frontend's, a new one after results are appended", async () => {
    const opened = await post("/v1/ingest/runs", { family: "backend", run_key: "kept-api" });
    expect(opened.statusCode).toBe(201);
    const appendApi = async (results: object[]) =>
      expect((await post("/v1/ingest/runs/kept-api/results", results)).statusCode).toBe(200);
    await appendApi([{ test_run_test_id: "x", name: "x", status: "failed", error_stack: "at x" }]);
    const apiDetail = (headers: Record<string, string> = {}) =>
      app.inject({ method: "GET", url: "/v1/api-test-run/kept-api", headers });

    const first = await apiDetail({ "accept-encoding": "br" });
    expect(first.statusCode).toBe(200);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(first.headers["cache-control"]).toBe("no-cache");
    expect((await apiDetail({ "if-none-match": etag })).statusCode).toBe(304);
    // A frontend run's kept answer is never taken for a backend one's, nor the other way.
    expect((await apiDetail()).json().results[0].error_message.stack).toBe("at x");

    await appendApi([{ test_run_test_id: "y", name: "y", status: "passed" }]);
    const grown = await apiDetail({ "if-none-match": etag });
    expect(grown.statusCode).toBe(200);
    expect(grown.headers.etag).not.toBe(etag);
    expect(grown.json().results.map((r: { name: string }) => r.name)).toEqual(["x", "y"]);
  });
});
