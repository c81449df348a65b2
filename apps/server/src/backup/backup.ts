import { existsSync } from "node:fs";
import { chmod, copyFile, mkdir, mkdtemp, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { PassThrough } from "node:stream";
import type pg from "pg";
import * as tar from "tar";
import type { ObjectStore } from "../storage/index.js";
import { SECRET_KEY_FILE } from "../secret-key.js";
import {
  ARCHIVE_FORMAT,
  BackupRefused,
  ARCHIVE_FORMAT_VERSION,
  isReferenced,
  keyCheckOf,
  MANIFEST_FILE,
  uuidsIn,
  writeCounted,
  type Manifest,
  type ObjectEntry,
  type TableEntry,
} from "./archive.js";
import {
  beginSnapshot,
  copyTableOut,
  endTransaction,
  lastMigration,
  listTables,
} from "./backup.repo.js";

export interface BackupSource {
  pool: pg.Pool;
  objects: ObjectStore;
  database: Manifest["database"];
  objectStore: Manifest["objectStore"];
  /** The data folder's secret-key file to include, or undefined when ASSAY_SECRET_KEY is set. */
  secretKeyFile: string | undefined;
  /** The server's secret key, for the archive's key check value (the key itself is not written). */
  secretKey?: Buffer;
}

export interface BackupSummary {
  file: string;
  tables: number;
  rows: number;
  objects: number;
  objectBytes: number;
  vanishedObjects: number;
  skippedUnreferencedObjects: number;
}

/**
 * Writes one archive of the database and the object store to `file`, while the server keeps
 * serving. The tables are read in one snapshot; the objects are listed after it, so every
 * object the snapshot refers to is there (ingestion stores objects before it commits rows), and
 * objects stored after it (uploads in flight, whose rows the snapshot does not hold) are left
 * out. The archive appears under its name only once complete.
 */
export async function createBackup(source: BackupSource, file: string): Promise<BackupSummary> {
  const target = path.resolve(file);
  if (existsSync(target)) {
    throw new BackupRefused(
      `${target} already exists; choose a new file name (a backup never overwrites).`,
    );
  }
  await mkdir(path.dirname(target), { recursive: true });
  // Beside the target, so that the final rename stays on one file system.
  const staging = await mkdtemp(path.join(path.dirname(target), ".assay-backup-"));
  try {
    await mkdir(path.join(staging, "tables"));
    await mkdir(path.join(staging, "objects"));
    const client = await source.pool.connect();
    let tables: TableEntry[];
    let migration: number;
    try {
      ({ tables, migration } = await dumpTables(client, staging));
    } finally {
      client.release();
    }
    const uuids = new Set<string>();
    for (const table of tables) await uuidsIn(path.join(staging, table.file), uuids);
    const copied = await copyObjects(source.objects, staging, uuids);
    let secretKey: Manifest["secretKey"] = "environment";
    if (source.secretKeyFile) {
      secretKey = existsSync(source.secretKeyFile) ? "file" : "none";
      if (secretKey === "file") {
        await copyFile(source.secretKeyFile, path.join(staging, SECRET_KEY_FILE));
      }
    }
    const manifest: Manifest = {
      format: ARCHIVE_FORMAT,
      formatVersion: ARCHIVE_FORMAT_VERSION,
      createdAt: new Date().toISOString(),
      migration,
      database: source.database,
      objectStore: source.objectStore,
      tables,
      objects: copied.objects,
      vanishedObjects: copied.vanished,
      skippedUnreferencedObjects: copied.skipped,
      secretKey,
      ...(source.secretKey ? { keyCheck: keyCheckOf(source.secretKey) } : {}),
    };
    await writeFile(path.join(staging, MANIFEST_FILE), JSON.stringify(manifest, null, 2));
    const partial = `${target}.partial`;
    const entries = [MANIFEST_FILE, "tables", "objects"];
    if (secretKey === "file") entries.push(SECRET_KEY_FILE);
    await tar.create({ gzip: true, file: partial, cwd: staging, portable: true }, entries);
    // It holds password hashes, sessions and the secret key: its owner's alone.
    await chmod(partial, 0o600);
    await rename(partial, target);
    return {
      file: target,
      tables: tables.length,
      rows: tables.reduce((sum, t) => sum + t.rows, 0),
      objects: copied.objects.length,
      objectBytes: copied.objects.reduce((sum, o) => sum + o.size, 0),
      vanishedObjects: copied.vanished.length,
      skippedUnreferencedObjects: copied.skipped,
    };
  } finally {
    await rm(staging, { recursive: true, force: true });
    await rm(`${target}.partial`, { force: true });
  }
}

async function dumpTables(
  client: pg.PoolClient,
  staging: string,
): Promise<{ tables: TableEntry[]; migration: number }> {
  await beginSnapshot(client);
  try {
    const migration = await lastMigration(client);
    const tables: TableEntry[] = [];
    for (const table of await listTables(client)) {
      const name = `tables/${table.name}.copy`;
      const stream = new PassThrough();
      const [, written] = await Promise.all([
        copyTableOut(client, table, stream),
        writeCounted(stream, path.join(staging, name)),
      ]);
      tables.push({
        name: table.name,
        columns: table.columns,
        // Text COPY writes one line per row; newlines inside values are escaped as \n.
        rows: written.lines,
        sha256: written.sha256,
        file: name,
      });
    }
    await endTransaction(client, true);
    return { tables, migration };
  } catch (error) {
    await endTransaction(client, false).catch(() => undefined);
    throw error;
  }
}

async function copyObjects(
  objects: ObjectStore,
  staging: string,
  uuids: ReadonlySet<string>,
): Promise<{ objects: ObjectEntry[]; vanished: string[]; skipped: number }> {
  const copied: ObjectEntry[] = [];
  const vanished: string[] = [];
  let skipped = 0;
  for await (const key of objects.list()) {
    if (!isReferenced(key, uuids)) {
      skipped++;
      continue;
    }
    const stored = await objects.get(key);
    if (!stored) {
      vanished.push(key);
      continue;
    }
    const name = `objects/${copied.length}`;
    const written = await writeCounted(stored.body, path.join(staging, name));
    copied.push({
      key,
      size: written.size,
      contentType: stored.contentType,
      sha256: written.sha256,
      file: name,
    });
  }
  return { objects: copied, vanished, skipped };
}
