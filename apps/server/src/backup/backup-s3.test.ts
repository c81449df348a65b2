import { createHash, randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import FormData from "form-data";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { buildTestApp } from "../../test/build-test-app.js";
import { QA_USER } from "../../test/tag-apps.js";
import { createTestDatabase, type TestDatabase } from "../../test/test-database.js";
import { attachPng, fixturePart, TEST_INGEST_TOKEN, upload } from "../../test/upload.js";
import { createObjectStore, type ObjectStore } from "../storage/index.js";
import { LocalObjectStore } from "../storage/local-store.js";
import { createBackup, type BackupSource } from "./backup.js";
import { restoreInto, withUnpackedArchive } from "./restore.js";
import { S3rver, type S3rverServer } from "../../test/s3rver.js";

// Moving an installation between object stores with a backup (issue #25): a server on the local
// object store is backed up and restored into one configured for S3 (the production S3 store,
// made from the configuration as `assay restore` makes it, against s3rver), and back again.
// Every object arrives byte for byte with its content type, and the restored app serves each
// attachment from its new store.

const BUCKET = "assay-restore";
const log = pino({ level: "silent" }) as FastifyBaseLogger;
let s3Folder: string;
let s3: S3rverServer;
let endpoint: string;
let work: string;
let source: TestDatabase;
let app: FastifyInstance;
let objects: ObjectStore;
const databases: TestDatabase[] = [];
const apps: FastifyInstance[] = [];

/** Every object's content type and bytes, by key. */
async function objectBytes(store: ObjectStore): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  for await (const key of store.list()) {
    const stored = await store.get(key);
    const hash = createHash("sha256");
    for await (const chunk of stored!.body) hash.update(chunk as Buffer);
    found.set(key, `${stored!.contentType} ${hash.digest("hex")}`);
  }
  return found;
}

const s3Stores: ObjectStore[] = [];

async function s3Store(prefix: string): Promise<ObjectStore> {
  const store = await createObjectStore(
    {
      objectStore: {
        kind: "s3",
        bucket: BUCKET,
        region: "us-east-1",
        endpoint,
        forcePathStyle: true,
        prefix,
      },
    },
    log,
  );
  s3Stores.push(store);
  return store;
}

async function backupAndRestore(
  from: BackupSource,
  into: ObjectStore,
  name: string,
): Promise<TestDatabase> {
  const archive = path.join(work, `${name}.tar.gz`);
  await createBackup(from, archive);
  const target = await createTestDatabase({ migrated: false });
  databases.push(target);
  await withUnpackedArchive(archive, work, (folder, manifest) =>
    restoreInto({ pool: target.db.pool, objects: into, workDir: work }, folder, manifest),
  );
  return target;
}

/** The restored app serves every attachment row's object, byte for byte. */
async function expectServed(
  database: TestDatabase,
  store: ObjectStore,
  expected: Map<string, Buffer>,
): Promise<void> {
  const served = (
    await buildTestApp(database.db, { objects: store, resolvePrincipal: async () => QA_USER })
  ).app;
  apps.push(served);
  const { rows } = await database.db.pool.query<{ key: string; type: string }>(
    "SELECT object_key AS key, content_type AS type FROM attachments",
  );
  expect(rows.length).toBe(expected.size);
  for (const { key, type } of rows) {
    const res = await served.inject({ method: "GET", url: `/v1/objects/${key}` });
    expect(res.statusCode, key).toBe(200);
    expect(res.headers["content-type"], key).toBe(type);
    expect(res.rawPayload.equals(expected.get(key)!), key).toBe(true);
  }
}

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), "assay-backup-s3-"));
  s3Folder = await mkdtemp(path.join(tmpdir(), "assay-s3rver-restore-"));
  s3 = new S3rver({
    address: "127.0.0.1",
    port: 0,
    silent: true,
    directory: s3Folder,
    configureBuckets: [{ name: BUCKET }],
  });
  endpoint = `http://127.0.0.1:${(await s3.run()).port}`;
  // s3rver's fixed credentials, through the SDK's standard chain as in production.
  vi.stubEnv("AWS_ACCESS_KEY_ID", "S3RVER");
  vi.stubEnv("AWS_SECRET_ACCESS_KEY", "S3RVER");

  source = await createTestDatabase();
  ({ app, objects } = await buildTestApp(source.db, {
    env: { ASSAY_INGEST_TOKEN: TEST_INGEST_TOKEN },
  }));
  const stored = await upload(app, [fixturePart("junit", "jest-junit.xml")], { run_key: "report" });
  expect(stored.statusCode, stored.body).toBe(201);
  const auth = { authorization: `Bearer ${TEST_INGEST_TOKEN}` };
  const post = (url: string, payload: unknown) =>
    app.inject({ method: "POST", url, headers: auth, payload: payload as string });
  expect((await post("/v1/ingest/runs", { family: "frontend", run_key: "live" })).statusCode).toBe(
    201,
  );
  const batch = ["t1", "t2"].map((id) => ({ test_run_test_id: id, name: id, status: "failed" }));
  expect((await post("/v1/ingest/runs/live/results", batch)).statusCode).toBe(200);
  expect((await attachPng(app, "live", "t1")).statusCode).toBe(201);
  // A larger binary object too (several chunks on every stream on its way).
  const form = new FormData();
  form.append("file", randomBytes(700_000), { filename: "run.webm", contentType: "video/webm" });
  const video = await app.inject({
    method: "POST",
    url: "/v1/ingest/runs/live/results/t2/attachments",
    headers: { ...auth, ...form.getHeaders() },
    payload: form.getBuffer(),
  });
  expect(video.statusCode, video.body).toBe(201);
}, 60_000);

afterAll(async () => {
  for (const served of apps) await served.close();
  await app?.close();
  for (const database of databases) await database.drop();
  await source?.drop();
  for (const store of s3Stores) (store as { destroy?: () => void }).destroy?.();
  vi.unstubAllEnvs();
  await s3?.close();
  await rm(work, { recursive: true, force: true });
  await rm(s3Folder, { recursive: true, force: true });
});

describe("a backup restored into another object store", () => {
  it("moves every object from the local store into S3 and back, byte for byte, and the app serves them", async () => {
    const original = await objectBytes(objects);
    expect(original.size).toBeGreaterThanOrEqual(2);
    const bytes = new Map<string, Buffer>();
    for (const key of original.keys()) {
      const chunks: Buffer[] = [];
      for await (const chunk of (await objects.get(key))!.body) chunks.push(chunk as Buffer);
      bytes.set(key, Buffer.concat(chunks));
    }
    const base = { database: "external", secretKeyFile: undefined } as const;

    const inS3 = await s3Store("restored/");
    const s3Database = await backupAndRestore(
      { ...base, pool: source.db.pool, objects, objectStore: "local" },
      inS3,
      "local-to-s3",
    );
    expect(await objectBytes(inS3)).toEqual(original);
    await expectServed(s3Database, inS3, bytes);

    // And back: a backup of the S3 installation restored into a local folder.
    const local = new LocalObjectStore(path.join(work, "local-again"));
    await local.init();
    const localDatabase = await backupAndRestore(
      { ...base, pool: s3Database.db.pool, objects: inS3, objectStore: "s3" },
      local,
      "s3-to-local",
    );
    expect(await objectBytes(local)).toEqual(original);
    await expectServed(localDatabase, local, bytes);
  }, 120_000);
});
