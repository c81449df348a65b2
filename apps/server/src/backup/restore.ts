import { createReadStream, existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import path from "node:path";
import type pg from "pg";
import * as tar from "tar";
import { listMigrations, migrate } from "../db/migrate.js";
import { partitionDefaultRows } from "../modules/storage/partitions.repo.js";
import type { ObjectStore } from "../storage/index.js";
import {
  ARCHIVE_FORMAT,
  BackupRefused,
  ARCHIVE_FORMAT_VERSION,
  MANIFEST_FILE,
  sha256OfFile,
  type Manifest,
} from "./archive.js";
import {
  beginLoad,
  copyTableIn,
  countRows,
  endTransaction,
  listTables,
  resetSequences,
  tablesWithData,
  truncateTables,
} from "./backup.repo.js";

export interface RestoreTarget {
  pool: pg.Pool;
  objects: ObjectStore;
  /** Where the archive is unpacked and checked before anything is written. */
  workDir: string;
}

export interface RestoreSummary {
  tables: number;
  rows: number;
  objects: number;
  manifest: Manifest;
  /** The unpacked archive's secret-key file, when it holds one (the caller puts it in place). */
  secretKeyFile: string | undefined;
  /** The secret key was checked against the archive (false: an archive from before key checks). */
  keyChecked?: boolean;
}

/**
 * Unpacks and checks an archive (every file's SHA-256 against the manifest) without touching
 * anything; `fn` then restores from the unpacked folder, which is removed afterwards.
 */
export async function withUnpackedArchive<T>(
  file: string,
  workDir: string,
  fn: (folder: string, manifest: Manifest) => Promise<T>,
): Promise<T> {
  if (!existsSync(file)) throw new BackupRefused(`${file} does not exist.`);
  await mkdir(workDir, { recursive: true });
  const folder = await mkdtemp(path.join(workDir, ".assay-restore-"));
  try {
    try {
      await tar.extract({ file, cwd: folder, strict: true });
    } catch (error) {
      throw new BackupRefused(
        `${file} is not an Assay backup (a gzipped tar): ${(error as Error).message}`,
      );
    }
    const manifest = await readManifest(folder, file);
    for (const entry of [...manifest.tables, ...manifest.objects]) {
      const where = path.join(folder, entry.file);
      if (!existsSync(where) || (await sha256OfFile(where)) !== entry.sha256) {
        throw new BackupRefused(
          `${file} is damaged: ${entry.file} is missing or does not match its checksum. Nothing was restored.`,
        );
      }
    }
    return await fn(folder, manifest);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

async function readManifest(folder: string, file: string): Promise<Manifest> {
  let manifest: Manifest;
  try {
    manifest = JSON.parse(await readFile(path.join(folder, MANIFEST_FILE), "utf8")) as Manifest;
  } catch {
    throw new BackupRefused(`${file} is not an Assay backup: it has no readable manifest.json.`);
  }
  if (manifest.format !== ARCHIVE_FORMAT || manifest.formatVersion > ARCHIVE_FORMAT_VERSION) {
    throw new BackupRefused(
      `${file} is not an Assay backup this version can read (format ${String(manifest.format)} ${String(manifest.formatVersion)}).`,
    );
  }
  const newest = Math.max(...listMigrations().map((m) => m.version));
  if (manifest.migration > newest) {
    throw new BackupRefused(
      `${file} was made by a newer Assay (schema ${manifest.migration}, this one knows up to ${newest}); upgrade Assay first.`,
    );
  }
  return manifest;
}

/**
 * Loads an unpacked archive into an empty database and object store: the schema is made by
 * Assay's own migrations up to the archive's, the tables are loaded in one transaction (all or
 * nothing), the objects are put back before it commits, and the later migrations then run as on
 * any upgrade.
 */
export async function restoreInto(
  target: RestoreTarget,
  folder: string,
  manifest: Manifest,
): Promise<RestoreSummary> {
  await migrate(
    target.pool,
    listMigrations().filter((m) => m.version <= manifest.migration),
  );
  const client = await target.pool.connect();
  let rows = 0;
  try {
    await beginLoad(client);
    try {
      const present = await listTables(client);
      const busy = await tablesWithData(client, present);
      if (busy.length > 0) {
        throw new BackupRefused(
          `the database is not empty (rows in ${busy.join(", ")}); restore into an empty data folder or an empty database. Nothing was changed.`,
        );
      }
      const known = new Map(present.map((t) => [t.name, new Set(t.columns)]));
      for (const table of manifest.tables) {
        const columns = known.get(table.name);
        const missing = table.columns.filter((c) => !columns?.has(c));
        if (!columns || missing.length > 0) {
          throw new Error(
            `the archive's table ${table.name} does not fit the schema of migration ${manifest.migration} (missing ${missing.join(", ") || "the table"}).`,
          );
        }
      }
      await truncateTables(
        client,
        manifest.tables.map((t) => t.name),
      );
      for (const table of manifest.tables) {
        await copyTableIn(
          client,
          table.name,
          table.columns,
          createReadStream(path.join(folder, table.file)),
        );
        const loaded = await countRows(client, table.name);
        if (loaded !== table.rows) {
          throw new Error(`${table.name}: loaded ${loaded} rows, the archive holds ${table.rows}.`);
        }
        rows += loaded;
      }
      await resetSequences(client);
      // Results arrive in the default partition; each month gets its own (migration 0191).
      await partitionDefaultRows(client);
      for (const object of manifest.objects) {
        await target.objects.put(object.key, createReadStream(path.join(folder, object.file)), {
          contentType: object.contentType,
        });
      }
      await endTransaction(client, true);
    } catch (error) {
      await endTransaction(client, false).catch(() => undefined);
      throw error;
    }
  } finally {
    client.release();
  }
  await migrate(target.pool);
  const keyFile = path.join(folder, "secret-key");
  return {
    tables: manifest.tables.length,
    rows,
    objects: manifest.objects.length,
    manifest,
    secretKeyFile: manifest.secretKey === "file" && existsSync(keyFile) ? keyFile : undefined,
  };
}
