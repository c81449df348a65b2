import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp } from "../../test/build-test-app.js";
import { createTestDatabase, type TestDatabase } from "../../test/test-database.js";
import { attachPng, fixturePart, TEST_INGEST_TOKEN, upload } from "../../test/upload.js";
import { insertResult, insertRun, insertTest } from "../../test/factories.js";
import { listTopFails } from "../modules/runs/history.repo.js";
import { countStep } from "../modules/topfails/topfails.service.js";
import { createToken } from "../modules/tokens/tokens.service.js";
import { createUser } from "../modules/users/users.service.js";
import { LocalObjectStore } from "../storage/local-store.js";
import type { ObjectStore } from "../storage/index.js";
import { BackupRefused } from "./archive.js";
import { createBackup } from "./backup.js";
import { restoreInto, withUnpackedArchive } from "./restore.js";

/**
 * Tables whose rows are updated in place while the backup runs: flaky tests' windows and daily
 * counts (by uploads), and the serving process's lease in `servers` (renewed by its heartbeat,
 * so on a slow machine it moves between the backup and the comparison).
 */
const MOVING_TABLES = new Set(["flaky_stats", "flaky_trend", "servers"]);

// A round trip: an installation with runs of several formats, screenshots, users, a token and a
// setting is backed up while uploads keep arriving, then restored into an empty database and
// object store; every table is compared row for row and every object byte for byte.

let source: TestDatabase;
let app: FastifyInstance;
let objects: ObjectStore;
let work: string;
const auth = { authorization: `Bearer ${TEST_INGEST_TOKEN}` };

/** Every table's rows as text, sorted: what "the same data" means here. */
async function tableRows(pool: pg.Pool): Promise<Map<string, string[]>> {
  const { rows } = await pool.query<{ name: string }>(
    `SELECT tablename AS name FROM pg_tables
      WHERE schemaname = 'public' AND tablename <> 'schema_migrations' ORDER BY 1`,
  );
  const result = new Map<string, string[]>();
  for (const { name } of rows) {
    const data = await pool.query<{ row: string }>(`SELECT t::text AS row FROM "${name}" t`);
    result.set(name, data.rows.map((r) => r.row).sort());
  }
  return result;
}

async function objectHashes(store: ObjectStore): Promise<Map<string, string>> {
  const hashes = new Map<string, string>();
  for await (const key of store.list()) {
    const stored = await store.get(key);
    const hash = createHash("sha256");
    for await (const chunk of stored!.body) hash.update(chunk as Buffer);
    hashes.set(key, `${stored!.contentType} ${hash.digest("hex")}`);
  }
  return hashes;
}

async function liveRunWithScreenshots(key: string): Promise<void> {
  const post = (url: string, payload: unknown) =>
    app.inject({ method: "POST", url, headers: auth, payload: payload as string });
  expect((await post("/v1/ingest/runs", { family: "frontend", run_key: key })).statusCode).toBe(
    201,
  );
  const batch = [1, 2, 3].map((n) => ({
    test_run_test_id: `t${n}`,
    name: `screen ${n}`,
    status: n === 2 ? "failed" : "passed",
  }));
  expect((await post(`/v1/ingest/runs/${key}/results`, batch)).statusCode).toBe(200);
  for (const n of [1, 2]) expect((await attachPng(app, key, `t${n}`)).statusCode).toBe(201);
  expect((await post(`/v1/ingest/runs/${key}/finish`, {})).statusCode).toBeLessThan(300);
}

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), "assay-backup-test-"));
  source = await createTestDatabase();
  ({ app, objects } = await buildTestApp(source.db, {
    env: { ASSAY_INGEST_TOKEN: TEST_INGEST_TOKEN },
  }));
  for (const [format, file] of [
    ["junit", "jest-junit.xml"],
    ["cucumber", "cucumber-report.json"],
    ["ctrf", "ctrf-report.json"],
  ] as const) {
    const response = await upload(app, [fixturePart(format, file)], { run_key: `run-${format}` });
    expect(response.statusCode, response.body).toBe(201);
  }
  await liveRunWithScreenshots("live-screens");
  await createUser(source.db.kysely, { email: "ana@example.com", name: "Ana", admin: true });
  await createToken(source.db.kysely, "ci upload", ["ingest"]);
  await source.db.kysely
    .insertInto("settings")
    .values({ name: "Nightly", description: "runs at 02:00", is_active: true })
    .execute();
  // Failures of this week, and Top Fails' totals kept over them (derived rows, backed up too).
  const recent = await insertRun(source.db);
  for (const title of ["Checkout", "Checkout", "Search"]) {
    const test = await insertTest(source.db, { title: `${title} ${Math.random()}` });
    await insertResult(source.db, recent, test, {
      status: "failed",
      start_time: new Date().toISOString(),
    });
  }
  await countStep(source.db);
}, 60_000);

afterAll(async () => {
  await app.close();
  await source.drop();
  await rm(work, { recursive: true, force: true });
});

describe("assay backup and restore", () => {
  it("gives back every row and object, from a backup taken while uploads arrive", async () => {
    const before = await tableRows(source.db.pool);
    const objectsBefore = await objectHashes(objects);
    expect(before.get("users")).toHaveLength(1);
    // The two screenshots, and the attachments the fixtures embed: one object each.
    const attachments = before.get("attachments")!.length;
    expect(attachments).toBeGreaterThanOrEqual(2);
    expect(objectsBefore.size).toBe(attachments);

    // Uploads keep arriving while the backup runs: the snapshot may or may not hold each.
    let uploading = true;
    const during = (async () => {
      for (let n = 0; uploading; n++) {
        await upload(app, [fixturePart("junit", "jest-junit.xml")], { run_key: `during-${n}` });
      }
    })();
    const archive = path.join(work, "backup.tar.gz");
    const summary = await createBackup(
      {
        pool: source.db.pool,
        objects,
        database: "external",
        objectStore: "local",
        secretKeyFile: undefined,
      },
      archive,
    );
    uploading = false;
    await during;
    expect(summary.objects).toBe(attachments);

    const target = await createTestDatabase({ migrated: false });
    const targetObjects = new LocalObjectStore(path.join(work, "restored-objects"));
    await targetObjects.init();
    try {
      const restored = await withUnpackedArchive(archive, work, (folder, manifest) =>
        restoreInto(
          { pool: target.db.pool, objects: targetObjects, workDir: work },
          folder,
          manifest,
        ),
      );
      expect(restored.rows).toBe(summary.rows);
      const after = await tableRows(target.db.pool);
      const sourceNow = await tableRows(source.db.pool);
      expect([...after.keys()]).toEqual([...before.keys()]);
      for (const [table, rows] of before) {
        // Flaky's windows move with each upload (updated in place, not appended): an upload
        // during or after the snapshot changes rows held before it. Their number only grows.
        if (MOVING_TABLES.has(table)) {
          expect(after.get(table)!.length, table).toBeGreaterThanOrEqual(rows.length);
          expect(sourceNow.get(table)!.length, table).toBeGreaterThanOrEqual(
            after.get(table)!.length,
          );
          continue;
        }
        // Everything that was there before the backup is back, unchanged ...
        expect(after.get(table), table).toEqual(expect.arrayContaining(rows));
        // ... and nothing that the source never held.
        expect(sourceNow.get(table), table).toEqual(expect.arrayContaining(after.get(table)!));
      }
      // A run of the uploads in flight is in the restore whole, or not at all.
      const resultsPerRun = async (pool: pg.Pool) =>
        new Map(
          (
            await pool.query<{ key: string; stored: number }>(
              `SELECT r.test_run_key AS key, count(x.id)::int AS stored
                 FROM runs r LEFT JOIN results x ON x.run_id = r.id GROUP BY r.test_run_key`,
            )
          ).rows.map((r) => [r.key, r.stored]),
        );
      const sourceRuns = await resultsPerRun(source.db.pool);
      const restoredRuns = await resultsPerRun(target.db.pool);
      expect(restoredRuns.size).toBeGreaterThanOrEqual(4);
      for (const [key, stored] of restoredRuns) expect(stored, key).toBe(sourceRuns.get(key));
      expect(await objectHashes(targetObjects)).toEqual(objectsBefore);
      // Top Fails' kept totals come back with the results they count, and are used as they are:
      // the same rows as a count of the restored results (none counted twice).
      const kept = await listTopFails(target.db, 2, 500, "kept");
      expect(kept.length).toBeGreaterThan(0);
      expect(kept).toEqual(await listTopFails(target.db, 2, 500));

      // The restored database takes new rows: its sequences are past the restored ids.
      await target.db.kysely
        .insertInto("settings")
        .values({ name: "After restore", description: "", is_active: false })
        .execute();
    } finally {
      await target.drop();
    }
  }, 120_000);

  it("refuses a database that is not empty, and changes nothing", async () => {
    const archive = path.join(work, "second.tar.gz");
    await createBackup(
      {
        pool: source.db.pool,
        objects,
        database: "external",
        objectStore: "local",
        secretKeyFile: undefined,
      },
      archive,
    );
    // The serving process renews its lease in `servers` every few seconds: not the restore's doing.
    const unleased = async () => {
      const rows = await tableRows(source.db.pool);
      rows.delete("servers");
      return rows;
    };
    const before = await unleased();
    await expect(
      withUnpackedArchive(archive, work, (folder, manifest) =>
        restoreInto({ pool: source.db.pool, objects, workDir: work }, folder, manifest),
      ),
    ).rejects.toThrow(/the database is not empty \(rows in .*runs.*\)/);
    expect(await unleased()).toEqual(before);
  });

  it("refuses a damaged archive and one that is not a backup, before writing anything", async () => {
    const notTar = path.join(work, "not-a-backup.tar.gz");
    await writeFile(notTar, "hello");
    const refused = withUnpackedArchive(notTar, work, async () => "restored");
    await expect(refused).rejects.toBeInstanceOf(BackupRefused);
    await expect(refused).rejects.toThrow(/is not an Assay backup/);
    await expect(
      createBackup(
        {
          pool: source.db.pool,
          objects,
          database: "external",
          objectStore: "local",
          secretKeyFile: undefined,
        },
        notTar,
      ),
    ).rejects.toThrow(/already exists/);
    expect(existsSync(`${notTar}.partial`)).toBe(false);
  });
});
