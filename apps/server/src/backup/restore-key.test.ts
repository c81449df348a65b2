import { randomBytes } from "node:crypto";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pino from "pino";
import * as tar from "tar";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../test/test-database.js";
import { loadConfig } from "../config.js";
import { LocalObjectStore } from "../storage/local-store.js";
import { BackupRefused, type Manifest } from "./archive.js";
import { createBackup } from "./backup.js";
import { backupInstallation, restoreInstallation } from "./index.js";

/**
 * Issue 31.7: `assay restore` checks the secret key before it changes anything. The archive
 * carries a key check value (never the key); a restore under another ASSAY_SECRET_KEY is refused
 * in one line and leaves the target database empty. Archives made before key checks still restore.
 */

const log = pino({ level: "silent" });
const KEY = randomBytes(32).toString("base64");
const OTHER_KEY = randomBytes(32).toString("base64");

let source: TestDatabase;
let work: string;

const configFor = (databaseUrl: string, secretKey: string, dataDir: string) =>
  loadConfig({ DATABASE_URL: databaseUrl, ASSAY_SECRET_KEY: secretKey, ASSAY_DATA_DIR: dataDir });

async function manifestOf(archive: string): Promise<Manifest> {
  const folder = await mkdtemp(path.join(work, "m-"));
  await tar.extract({ file: archive, cwd: folder });
  return JSON.parse(await readFile(path.join(folder, "manifest.json"), "utf8")) as Manifest;
}

async function tableCount(target: TestDatabase): Promise<number> {
  const { rows } = await target.db.pool.query(
    "SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = 'public'",
  );
  return rows[0].n as number;
}

beforeAll(async () => {
  source = await createTestDatabase();
  work = await mkdtemp(path.join(tmpdir(), "assay-restore-key-"));
  await source.db.pool.query(
    "INSERT INTO settings (name, description, is_active) VALUES ('kept', '', false)",
  );
});
afterAll(async () => {
  await source?.drop();
  await rm(work, { recursive: true, force: true });
});

describe("assay restore and the secret key", () => {
  const archive = () => path.join(work, "keyed.tar.gz");

  it("writes a key check value into the archive, never the key", async () => {
    await backupInstallation(configFor(source.url, KEY, path.join(work, "src")), log, archive());
    const manifest = await manifestOf(archive());
    expect(manifest.secretKey).toBe("environment");
    expect(manifest.keyCheck).toMatch(/^[0-9a-f]{64}$/);
    const raw = Buffer.from(KEY, "base64");
    const text = JSON.stringify(manifest);
    for (const form of [KEY, raw.toString("hex"), raw.toString("base64url")])
      expect(text).not.toContain(form);
  });

  it("refuses another ASSAY_SECRET_KEY in one line, before it changes anything", async () => {
    const target = await createTestDatabase({ migrated: false });
    try {
      const restoring = restoreInstallation(
        configFor(target.url, OTHER_KEY, path.join(work, "wrong")),
        log,
        archive(),
      );
      await expect(restoring).rejects.toBeInstanceOf(BackupRefused);
      await expect(restoring).rejects.toThrow(
        /^ASSAY_SECRET_KEY is not the secret key this backup was made with \(the archive's key check differs\); set ASSAY_SECRET_KEY to the backed-up server's key and run the restore again\. Nothing was changed\.$/,
      );
      expect(await tableCount(target)).toBe(0);

      const restored = await restoreInstallation(
        configFor(target.url, KEY, path.join(work, "right")),
        log,
        archive(),
      );
      expect(restored.keyChecked).toBe(true);
      const { rows } = await target.db.pool.query("SELECT name FROM settings");
      expect(rows).toEqual([{ name: "kept" }]);
    } finally {
      await target.drop();
    }
  }, 60_000);

  it("restores an archive made before key checks, saying the key was not checked", async () => {
    const old = path.join(work, "old.tar.gz");
    const objects = new LocalObjectStore(path.join(work, "old-objects"));
    await objects.init();
    await createBackup(
      {
        pool: source.db.pool,
        objects,
        database: "external",
        objectStore: "local",
        secretKeyFile: undefined,
      },
      old,
    );
    expect((await manifestOf(old)).keyCheck).toBeUndefined();
    const target = await createTestDatabase({ migrated: false });
    try {
      const restored = await restoreInstallation(
        configFor(target.url, OTHER_KEY, path.join(work, "old-target")),
        log,
        old,
      );
      expect(restored.keyChecked).toBe(false);
      expect(restored.rows).toBeGreaterThan(0);
    } finally {
      await target.drop();
    }
  }, 60_000);
});
