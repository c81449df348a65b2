import Fastify, { type FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp } from "../../test/build-test-app.js";
import { QA_USER } from "../../test/tag-apps.js";
import { createTestDatabase, type TestDatabase } from "../../test/test-database.js";
import type { Db } from "../db/pool.js";
import { AnswerCache, MAX_AGE_MS, registerAnswerCache, SnapshotReader } from "./answer-cache.js";

/*
 * Kept read answers (answer-cache.ts) are sent again only while the database is unchanged: every
 * kind of write (results ingested, a tag put on or taken off, a run deleted) is seen by the next
 * read, also on another server of the same database.
 */

describe("SnapshotReader", () => {
  it("shares a read not sent yet, never one sent before the request came", async () => {
    let reads = 0;
    const release: (() => void)[] = [];
    const reader = new SnapshotReader(
      () => new Promise<string>((resolve) => release.push(() => resolve(`v${++reads}`))),
    );
    const first = reader.version();
    await new Promise((r) => setImmediate(r));
    expect(release).toHaveLength(1);
    // The first read is on its way: these two wait for the next one, and share it.
    const second = reader.version();
    const third = reader.version();
    expect(release).toHaveLength(1);
    release[0]!();
    expect(await first).toBe("v1");
    await new Promise((r) => setImmediate(r));
    expect(release).toHaveLength(2);
    release[1]!();
    expect(await second).toBe("v2");
    expect(await third).toBe("v2");
  });

  it("goes on after a failed read", async () => {
    let calls = 0;
    const reader = new SnapshotReader(async () => {
      if (++calls === 1) throw new Error("database down");
      return "v2";
    });
    await expect(reader.version()).rejects.toThrow("database down");
    expect(await reader.version()).toBe("v2");
  });
});

describe("AnswerCache", () => {
  it("gives an answer back for its version only, and not once too old", () => {
    let now = 0;
    const cache = new AnswerCache(1024 * 1024, () => now);
    cache.set("k", {
      version: "a",
      payload: "{}",
      type: "application/json",
      encoding: undefined,
      vary: undefined,
    });
    expect(cache.get("k", "a")?.payload).toBe("{}");
    expect(cache.get("k", "b")).toBeUndefined();
    now = 30_000;
    expect(cache.get("k", "a", 60_000)).toBeDefined();
    expect(cache.get("k", "a", 10_000)).toBeUndefined();
    now = MAX_AGE_MS;
    expect(cache.get("k", "a")).toBeUndefined();
  });
});

describe("registerAnswerCache", () => {
  it("sends a kept answer while the version holds, builds it again when asked fresh", async () => {
    const server = Fastify();
    let version = "v1";
    let builds = 0;
    registerAnswerCache(server, {} as Db, { readVersion: async () => version });
    server.get("/n", { config: { keepAnswer: {} } }, async () => ({ build: ++builds }));
    server.get("/other", async () => ({ build: ++builds }));
    const get = async (url: string, headers: Record<string, string> = {}) =>
      (await server.inject({ method: "GET", url, headers })).json<{ build: number }>().build;
    expect(await get("/n")).toBe(1);
    expect(await get("/n")).toBe(1);
    expect(await get("/n?page=2")).toBe(2);
    expect(await get("/n", { "cache-control": "no-cache" })).toBe(3);
    expect(await get("/n")).toBe(3);
    version = "v2";
    expect(await get("/n")).toBe(4);
    // Routes that do not declare keepAnswer are built every time.
    expect(await get("/other")).toBe(5);
    expect(await get("/other")).toBe(6);
    await server.close();
  });
});

let database: TestDatabase;
let app: FastifyInstance;
/** A second server on the same database: its writes must be seen by the first one's reads. */
let other: FastifyInstance;

beforeAll(async () => {
  database = await createTestDatabase();
  ({ app } = await buildTestApp(database.db, { resolvePrincipal: async () => QA_USER }));
  ({ app: other } = await buildTestApp(database.db, { resolvePrincipal: async () => QA_USER }));
});
afterAll(async () => {
  await Promise.all([app.close(), other.close()]);
  await database.drop();
});

async function send(
  server: FastifyInstance,
  method: "POST" | "DELETE",
  url: string,
  body?: object,
) {
  const answer = await server.inject({ method, url, payload: body });
  expect(answer.statusCode, answer.body).toBeLessThan(300);
  return answer.json();
}

async function read(url: string, encoding?: string) {
  const headers = encoding ? { "accept-encoding": encoding } : {};
  const answer = await app.inject({ method: "GET", url, headers });
  expect(answer.statusCode, answer.body).toBe(200);
  return answer;
}

/** A start `minutes` ago: inside Top Fails' window, in order. */
const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

interface RunPage {
  items: { test_run_key: string; total: number; failed: number; unstable: number }[];
}
const runs = async () => (await read("/v1/test-runs?page=1&page_size=15")).json<RunPage>().items;

describe("kept read answers", () => {
  it("are sent again as they were, compressed as asked", async () => {
    await send(app, "POST", "/v1/ingest/runs", { family: "frontend", run_key: "r1" });
    const first = await read("/v1/test-runs?page=1&page_size=15", "br");
    const again = await read("/v1/test-runs?page=1&page_size=15", "br");
    expect(again.headers["content-type"]).toMatch(/^application\/json/);
    expect(again.rawPayload.equals(first.rawPayload)).toBe(true);
    for (const header of ["content-encoding", "vary", "content-type"])
      expect(again.headers[header], header).toBe(first.headers[header]);
    // Another encoding is kept apart: plain JSON for a client that asks for none.
    expect((await read("/v1/test-runs?page=1&page_size=15")).json<RunPage>().items).toHaveLength(1);
  });

  it("show every write on the next read", async () => {
    expect((await runs()).map((r) => r.test_run_key)).toEqual(["r1"]);

    // Results ingested (on the other server).
    await send(other, "POST", "/v1/ingest/runs/r1/results", [
      {
        test_run_test_id: "a",
        name: "a",
        status: "failed",
        error_message: "boom",
        start_time: ago(2),
      },
    ]);
    expect((await runs())[0]).toMatchObject({ total: 1, failed: 1, unstable: 0 });
    const view = async () =>
      (await read("/v1/test-runs/r1/view?offset=0&limit=60")).json<{
        summary: { tag_options: string[] };
      }>();
    expect((await view()).summary.tag_options).not.toContain("@flaky-login");

    // A tag put on the failing test: its failure is unstable, the dialog offers the new tag.
    const testId = (await read("/v1/test-runs/r1/view?offset=0&limit=60")).json<{
      rows: unknown[][];
    }>().rows[0]![2] as number;
    const link = await send(other, "POST", "/v1/dtag", { name: "@unstable", testId });
    await send(other, "POST", "/v1/dtag", { name: "@flaky-login", testId });
    expect((await runs())[0]).toMatchObject({ unstable: 1 });
    expect((await view()).summary.tag_options).toContain("@flaky-login");
    // ...and taken off again.
    const taggedTestId = (link as { test: { taggedTestId: number } }).test.taggedTestId;
    await send(other, "DELETE", `/v1/tagged_test/${taggedTestId}`);
    expect((await runs())[0]).toMatchObject({ unstable: 0 });

    // A test's history and Top Fails: a later run of the test.
    const history = async () =>
      (await read(`/v1/history/${testId}`))
        .json<{ test_run_key: string }[]>()
        .map((r) => r.test_run_key);
    const fails = async () => (await read("/v1/fails")).json<{ fail_count: number }[]>();
    expect(await history()).toEqual(["r1"]);
    expect(await fails()).toMatchObject([{ fail_count: 1 }]);
    await send(other, "POST", "/v1/ingest/runs", { family: "frontend", run_key: "r2" });
    await send(other, "POST", "/v1/ingest/runs/r2/results", [
      {
        test_run_test_id: "a",
        name: "a",
        status: "failed",
        error_message: "boom again",
        start_time: ago(1),
      },
    ]);
    expect(await history()).toEqual(["r2", "r1"]);
    expect(await fails()).toMatchObject([{ fail_count: 2 }]);

    // A run deleted (as the retention job does), with its results.
    await database.db.pool.query("DELETE FROM runs WHERE test_run_key = 'r1'");
    expect((await runs()).map((r) => r.test_run_key)).toEqual(["r2"]);
    expect(await history()).toEqual(["r2"]);
    const gone = await app.inject({ method: "GET", url: "/v1/test-runs/r1/view" });
    expect(gone.statusCode).toBe(404);
  });
});
