import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import type pg from "pg";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp } from "../../../test/build-test-app.js";
import { createTestDatabase, type TestDatabase } from "../../../test/test-database.js";
import {
  attachPng,
  fixturePart,
  TEST_INGEST_TOKEN,
  TINY_PNG,
  upload,
} from "../../../test/upload.js";
import { createSidePool } from "../../db/pool.js";
import { LocalObjectStore } from "../../storage/local-store.js";
import * as liveRepo from "./live.repo.js";
import { sweepOrphanObjects } from "./orphan-sweep.js";
import { objectStoreSink, type AttachmentSink } from "./pipeline/attachment-sink.js";

// The orphan objects of issue #25: an object stored just before the server died, whose row never
// committed. Real PostgreSQL and the real local object store; the crash is the death of the
// upload's database session between the store and the COMMIT, as a SIGKILL of the server ends it.

let database: TestDatabase;
let objects: LocalObjectStore;
let folder: string;
let side: pg.Pool;
let sink: AttachmentSink;
let app: FastifyInstance;
const deps = () => ({ db: database.db, objects, log: pino({ level: "silent" }) });
type Key = { test_run_key: string };
const auth = { authorization: `Bearer ${TEST_INGEST_TOKEN}` };

async function pendingKeys(): Promise<string[]> {
  const { rows } = await database.db.pool.query<{ object_key: string }>(
    "SELECT object_key FROM pending_objects ORDER BY object_key",
  );
  return rows.map((r) => r.object_key);
}

/** Moves the records back in time, past the sweep's one-hour grace period. */
async function age(keys: readonly string[], hours = 2): Promise<void> {
  await database.db.pool.query(
    "UPDATE pending_objects SET created_at = now() - make_interval(hours => $2) WHERE object_key = ANY($1)",
    [keys, hours],
  );
}

async function exists(key: string): Promise<boolean> {
  const stored = await objects.get(key);
  stored?.body.destroy();
  return stored !== undefined;
}

/** A result to attach to: through the live API, as a reporter opens its run. */
async function resultId(runKey: string): Promise<string> {
  const post = (url: string, payload: unknown) =>
    app.inject({ method: "POST", url, headers: auth, payload: payload as string });
  await post("/v1/ingest/runs", { family: "frontend", run_key: runKey });
  await post(`/v1/ingest/runs/${runKey}/results`, [
    { test_run_test_id: "t1", name: "shows the cart", status: "failed" },
  ]);
  return (await liveRepo.findResult(database.db.pool, runKey, "t1"))!.id;
}

/** Stores an object and begins the transaction that names it, as an attachment upload does. */
async function storeAndBegin(resultIdValue: string) {
  const [key] = (await sink.reserve([{ contentType: "image/png", name: "shot.png" }])) as [string];
  const { size } = await sink.put(key, TINY_PNG, "image/png");
  const client = await database.db.pool.connect();
  await client.query("BEGIN");
  await liveRepo.insertAttachment(client, {
    resultId: resultIdValue,
    name: "shot.png",
    contentType: "image/png",
    description: null,
    stepIndex: null,
    takenAt: null,
    objectKey: key,
    size,
  });
  return { key, client };
}

/** The server dies: its session ends with the transaction open, and PostgreSQL rolls it back. */
async function crash(client: pg.PoolClient): Promise<void> {
  const { rows } = await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
  // The session's end reaches the client as an error event; it is expected here.
  client.on("error", () => undefined);
  await database.db.pool.query("SELECT pg_terminate_backend($1)", [rows[0]!.pid]);
  client.release(new Error("the session was killed"));
}

beforeAll(async () => {
  database = await createTestDatabase();
  folder = await mkdtemp(path.join(tmpdir(), "assay-orphans-"));
  objects = new LocalObjectStore(folder);
  await objects.init();
  side = createSidePool(database.db, 2, "orphan-sweep-test");
  sink = objectStoreSink(objects, side);
  // No job handlers: these tests run the sweep themselves, at the moments they choose.
  ({ app } = await buildTestApp(database.db, {
    env: { ASSAY_INGEST_TOKEN: TEST_INGEST_TOKEN },
    objects,
    startWorkers: false,
  }));
});
afterAll(async () => {
  await app.close();
  await side.end();
  await database.drop();
  await rm(folder, { recursive: true, force: true });
});

describe("the orphan sweep", () => {
  it("removes an object stored before a crash whose row never committed, once past the grace period", async () => {
    const { key, client } = await storeAndBegin(await resultId("crash-1"));
    await crash(client);
    const { rows } = await database.db.pool.query(
      "SELECT 1 FROM attachments WHERE object_key = $1",
      [key],
    );
    expect(rows, "the row died with the session").toHaveLength(0);
    expect(await exists(key), "the object was stored before the crash").toBe(true);
    expect(await pendingKeys()).toContain(key);

    // Younger than the grace period: it could still be an upload in progress.
    expect(await sweepOrphanObjects(deps())).toEqual({ removed: 0, kept: 0 });
    expect(await exists(key)).toBe(true);

    await age([key]);
    expect(await sweepOrphanObjects(deps())).toEqual({ removed: 1, kept: 0 });
    expect(await exists(key)).toBe(false);
    expect(await pendingKeys()).not.toContain(key);
  });

  it("never removes a committed attachment, even with a stale record left for it", async () => {
    await resultId("kept-1");
    const attached = await attachPng(app, "kept-1", "t1");
    expect(attached.statusCode, attached.body).toBe(201);
    const key = attached.json<{ object_key: string }>().object_key;
    expect(await pendingKeys(), "settled in the transaction that wrote the row").not.toContain(key);

    // A record that outlived its commit (written by hand here): the row decides, not the record.
    await side.query("INSERT INTO pending_objects (object_key) VALUES ($1)", [key]);
    await age([key], 48);
    expect(await sweepOrphanObjects(deps(), 0)).toEqual({ removed: 0, kept: 1 });
    expect(await exists(key)).toBe(true);
    expect(await pendingKeys()).not.toContain(key);
    const served = await app.inject({ method: "GET", url: `/v1/objects/${key}` });
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.equals(TINY_PNG)).toBe(true);
  });

  it("skips the objects of an upload still in its transaction, which then commits them", async () => {
    const id = await resultId("slow-1");
    const { key, client } = await storeAndBegin(id);
    await age([key]);
    await sink.settle(client, [key]);
    // The settled record is locked by the open transaction: the sweep passes it by.
    expect(await sweepOrphanObjects(deps(), 0)).toEqual({ removed: 0, kept: 0 });
    await client.query("COMMIT");
    client.release();
    expect(await exists(key)).toBe(true);
    expect(await pendingKeys()).not.toContain(key);
  });

  it("fails an upload whose object was swept before it settled, so no row names a deleted object", async () => {
    const id = await resultId("swept-1");
    const { key, client } = await storeAndBegin(id);
    await age([key]);
    expect(await sweepOrphanObjects(deps(), 0)).toEqual({ removed: 1, kept: 0 });
    await expect(sink.settle(client, [key])).rejects.toMatchObject({
      statusCode: 503,
      code: "attachment_swept",
    });
    await client.query("ROLLBACK");
    client.release();
    const { rows } = await database.db.pool.query(
      "SELECT 1 FROM attachments WHERE object_key = $1",
      [key],
    );
    expect(rows).toHaveLength(0);
  });

  it("settles the attachments of report uploads and a Locust report with their runs", async () => {
    const before = await pendingKeys();
    const cucumber = await upload(app, [fixturePart("cucumber", "cucumber-report.json")]);
    expect(cucumber.statusCode, cucumber.body).toBe(201);
    expect(cucumber.json()).toMatchObject({ attachments: 5 });
    const locust = await upload(app, [
      fixturePart("locust", "run_stats.csv"),
      fixturePart("locust", "report.html"),
    ]);
    expect(locust.statusCode, locust.body).toBe(201);
    const { rows } = await database.db.pool.query<{ object_key: string }>(
      `SELECT a.object_key FROM attachments a JOIN results r ON r.id = a.result_id
       JOIN runs ON runs.id = r.run_id WHERE runs.test_run_key = $1
       UNION ALL
       SELECT substr(report_location, 13) FROM runs WHERE test_run_key = $2`,
      [cucumber.json<Key>().test_run_key, locust.json<Key>().test_run_key],
    );
    expect(rows).toHaveLength(6);
    for (const { object_key } of rows) expect(await exists(object_key), object_key).toBe(true);
    expect(await pendingKeys(), "nothing left pending").toEqual(before);
    await age(rows.map((r) => r.object_key));
    expect(await sweepOrphanObjects(deps(), 0)).toEqual({ removed: 0, kept: 0 });
  });
});

describe("the sweep as a background job", () => {
  it("runs at start and removes an orphan left by an earlier process", async () => {
    const [key] = (await sink.reserve([{ contentType: "image/png", name: "left.png" }])) as [
      string,
    ];
    await sink.put(key, TINY_PNG, "image/png");
    await age([key]);
    const started = await buildTestApp(database.db, { objects });
    try {
      const until = Date.now() + 30_000;
      while ((await exists(key)) && Date.now() < until)
        await new Promise((r) => setTimeout(r, 200));
      expect(await exists(key), "the start's sweep removed it").toBe(false);
      expect(await pendingKeys()).not.toContain(key);
    } finally {
      await started.app.close();
    }
  });
});
