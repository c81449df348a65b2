import type { FastifyInstance } from "fastify";
import FormData from "form-data";
import { describe, expect, it } from "vitest";
import { useIngestApp } from "../../../../test/ingest-app.js";
import type { TestDatabase } from "../../../../test/test-database.js";
import { TEST_INGEST_TOKEN, TINY_PNG } from "../../../../test/upload.js";
import type { ObjectStore } from "../../../storage/index.js";

// A live attachment sent again with its Idempotency-Key (a reporter retrying after a lost
// answer) stores one object and one row, and gets the first answer (issue #25).

let database: TestDatabase;
let app: FastifyInstance;
let objects: ObjectStore;
const auth = { authorization: `Bearer ${TEST_INGEST_TOKEN}` };

function attach(runKey: string, bytes: Buffer, headers: Record<string, string> = {}) {
  const form = new FormData();
  form.append("description", "after step 2");
  form.append("file", bytes, { filename: "screenshot.png", contentType: "image/png" });
  return app.inject({
    method: "POST",
    url: `/v1/ingest/runs/${runKey}/results/t1/attachments`,
    headers: { ...auth, ...headers, ...form.getHeaders() },
    payload: form.getBuffer(),
  });
}

async function openRun(runKey: string): Promise<void> {
  const post = (url: string, payload: unknown) =>
    app.inject({ method: "POST", url, headers: auth, payload: payload as string });
  expect((await post("/v1/ingest/runs", { family: "frontend", run_key: runKey })).statusCode).toBe(
    201,
  );
  const appended = await post(`/v1/ingest/runs/${runKey}/results`, [
    { test_run_test_id: "t1", name: "pays", status: "failed" },
  ]);
  expect(appended.statusCode).toBe(200);
}

async function attachmentRows(runKey: string): Promise<number> {
  const { rows } = await database.db.pool.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM attachments a JOIN results r ON r.id = a.result_id
     JOIN runs ON runs.id = r.run_id WHERE runs.test_run_key = $1`,
    [runKey],
  );
  return rows[0]!.n;
}

async function objectCount(): Promise<number> {
  const keys: string[] = [];
  for await (const key of objects.list()) keys.push(key);
  return keys.length;
}

async function pendingCount(): Promise<number> {
  const { rows } = await database.db.pool.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM pending_objects",
  );
  return rows[0]!.n;
}

useIngestApp((made) => ({ database, app, objects } = made), { startWorkers: false });

describe("POST .../attachments with an Idempotency-Key", () => {
  it("answers a retry as the first request and stores one object and one row", async () => {
    await openRun("idem-1");
    const objectsBefore = await objectCount();
    const key = { "idempotency-key": "shot-7f3a" };
    const first = await attach("idem-1", TINY_PNG, key);
    expect(first.statusCode, first.body).toBe(201);
    const retry = await attach("idem-1", TINY_PNG, key);
    expect(retry.statusCode, retry.body).toBe(201);
    expect(retry.json()).toEqual(first.json());
    expect(await attachmentRows("idem-1")).toBe(1);
    expect(await objectCount()).toBe(objectsBefore + 1);
    expect(await pendingCount()).toBe(0);
  });

  it("ends with one object and one row when the retry arrives while the first is in flight", async () => {
    await openRun("idem-2");
    const objectsBefore = await objectCount();
    const key = { "idempotency-key": "shot-concurrent" };
    const answers = await Promise.all([
      attach("idem-2", TINY_PNG, key),
      attach("idem-2", TINY_PNG, key),
      attach("idem-2", TINY_PNG, key),
    ]);
    for (const answer of answers) expect(answer.statusCode, answer.body).toBe(201);
    expect(answers[1]!.json()).toEqual(answers[0]!.json());
    expect(answers[2]!.json()).toEqual(answers[0]!.json());
    expect(await attachmentRows("idem-2")).toBe(1);
    expect(await objectCount()).toBe(objectsBefore + 1);
    expect(await pendingCount(), "the extra copies were deleted, not left to the sweep").toBe(0);
  });

  it("refuses the same key with other bytes (422) and stores nothing", async () => {
    await openRun("idem-3");
    const key = { "idempotency-key": "shot-reused" };
    expect((await attach("idem-3", TINY_PNG, key)).statusCode).toBe(201);
    const objectsBefore = await objectCount();
    const other = await attach("idem-3", Buffer.concat([TINY_PNG, Buffer.from([0])]), key);
    expect(other.statusCode).toBe(422);
    expect(other.json()).toEqual({
      error: {
        code: "idempotency_key_reused",
        message: "This Idempotency-Key was used for a different request; use a new key.",
      },
    });
    expect(await attachmentRows("idem-3")).toBe(1);
    expect(await objectCount()).toBe(objectsBefore);
  });

  it("stores each request sent without a key", async () => {
    await openRun("idem-4");
    const objectsBefore = await objectCount();
    expect((await attach("idem-4", TINY_PNG)).statusCode).toBe(201);
    expect((await attach("idem-4", TINY_PNG)).statusCode).toBe(201);
    expect(await attachmentRows("idem-4")).toBe(2);
    expect(await objectCount()).toBe(objectsBefore + 2);
  });
});
