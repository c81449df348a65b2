import { existsSync } from "node:fs";
import { copyFile, readFile } from "node:fs/promises";
import path from "node:path";
import type { FastifyBaseLogger } from "fastify";
import type { Logger } from "pino";
import { decodeSecretKey, type Config } from "../config.js";
import { openDatabase } from "../db/database.js";
import { SECRET_KEY_FILE } from "../secret-key.js";
import { createObjectStore } from "../storage/index.js";
import { createBackup, type BackupSummary } from "./backup.js";
import { BackupRefused, keyCheckMatches, type Manifest } from "./archive.js";
import { restoreInto, withUnpackedArchive, type RestoreSummary } from "./restore.js";

export { BackupRefused } from "./archive.js";
export type { BackupSummary } from "./backup.js";
export type { RestoreSummary } from "./restore.js";

/** `assay backup FILE`: the configured database (embedded or DATABASE_URL) and object store. */
export async function backupInstallation(
  config: Config,
  log: Logger,
  file: string,
): Promise<BackupSummary> {
  const keyFile = path.join(config.dataDir, SECRET_KEY_FILE);
  const secretKey = config.secretKey ?? (await readKeyFile(keyFile));
  const database = await openDatabase(config, log);
  try {
    const objects = await createObjectStore(config, log as FastifyBaseLogger);
    return await createBackup(
      {
        pool: database.db.pool,
        objects,
        database: config.databaseUrl ? "external" : "embedded",
        objectStore: config.objectStore.kind,
        secretKeyFile: config.secretKey ? undefined : keyFile,
        secretKey,
      },
      file,
    );
  } finally {
    await database.close();
  }
}

/** A data folder's secret-key file's key; undefined when there is none (or none readable). */
async function readKeyFile(file: string): Promise<Buffer | undefined> {
  return existsSync(file) ? decodeSecretKey(await readFile(file, "utf8")) : undefined;
}

/**
 * `assay restore FILE` into the configured database and object store, which must be empty.
 * The archive is checked before anything is written, the secret key too: the key the restored
 * server will start with (ASSAY_SECRET_KEY, the data folder's key file, or else the archive's)
 * must match the archive's key check value. An archive made before key checks restores
 * unchecked (`keyChecked` false). The secret key comes back with the archive unless
 * ASSAY_SECRET_KEY is set.
 */
export async function restoreInstallation(
  config: Config,
  log: Logger,
  file: string,
): Promise<RestoreSummary> {
  const archive = path.resolve(file);
  return withUnpackedArchive(archive, config.dataDir, async (folder, manifest) => {
    const keyFile = path.join(config.dataDir, SECRET_KEY_FILE);
    const archivedKey =
      manifest.secretKey === "file"
        ? decodeSecretKey(await readFile(path.join(folder, SECRET_KEY_FILE), "utf8"))
        : undefined;
    const keyChecked = await refuseOtherKey(config, keyFile, archivedKey, manifest);
    const database = await openDatabase(config, log);
    let summary: RestoreSummary;
    try {
      const objects = await createObjectStore(config, log as FastifyBaseLogger);
      summary = await restoreInto(
        { pool: database.db.pool, objects, workDir: config.dataDir },
        folder,
        manifest,
      );
    } finally {
      await database.close();
    }
    if (archivedKey && !config.secretKey && !existsSync(keyFile)) {
      await copyFile(path.join(folder, SECRET_KEY_FILE), keyFile);
    }
    return { ...summary, keyChecked };
  });
}

/**
 * Sessions, the sign-in provider's keys and encrypted settings open only with the key they
 * were sealed with: a restore next to another key would start a server that cannot read them.
 * Returns whether the key was checked against the archive's key check value.
 */
async function refuseOtherKey(
  config: Config,
  keyFile: string,
  archivedKey: Buffer | undefined,
  manifest: Manifest,
): Promise<boolean> {
  const present = config.secretKey ?? (await readKeyFile(keyFile));
  const where = config.secretKey ? "ASSAY_SECRET_KEY" : keyFile;
  if (manifest.keyCheck !== undefined) {
    const startsWith = present ?? archivedKey;
    if (!startsWith)
      throw new BackupRefused(
        "the backed-up server used ASSAY_SECRET_KEY; set it to the same value and run the restore again. Nothing was changed.",
      );
    if (!keyCheckMatches(manifest.keyCheck, startsWith))
      throw new BackupRefused(
        present
          ? `${where} is not the secret key this backup was made with (the archive's key check differs); set ASSAY_SECRET_KEY to the backed-up server's key${config.secretKey ? "" : " or restore into an empty data folder"} and run the restore again. Nothing was changed.`
          : "the archive's secret-key file does not match its key check: the archive is damaged. Nothing was changed.",
      );
    return true;
  }
  // An archive from before key checks: only a key file it carries can be compared.
  if (!archivedKey) {
    if (manifest.secretKey === "environment" && !config.secretKey) {
      throw new BackupRefused(
        "the backed-up server used ASSAY_SECRET_KEY; set it to the same value and run the restore again. Nothing was changed.",
      );
    }
    return false;
  }
  if (present && !present.equals(archivedKey)) {
    throw new BackupRefused(
      `the archive's secret key differs from ${where}; restore into an empty data folder (or unset ASSAY_SECRET_KEY). Nothing was changed.`,
    );
  }
  return true;
}
