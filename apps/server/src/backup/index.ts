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
import { BackupRefused, type Manifest } from "./archive.js";
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
  const database = await openDatabase(config, log);
  try {
    const objects = await createObjectStore(config, log as FastifyBaseLogger);
    return await createBackup(
      {
        pool: database.db.pool,
        objects,
        database: config.databaseUrl ? "external" : "embedded",
        objectStore: config.objectStore.kind,
        secretKeyFile: config.secretKey ? undefined : path.join(config.dataDir, SECRET_KEY_FILE),
      },
      file,
    );
  } finally {
    await database.close();
  }
}

/**
 * `assay restore FILE` into the configured database and object store, which must be empty.
 * The archive is checked before anything is written; the secret key comes back with it unless
 * ASSAY_SECRET_KEY is set (then it must be the key the backup was made with).
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
    await refuseOtherKey(config, keyFile, archivedKey, manifest);
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
    return summary;
  });
}

/**
 * Sessions, the sign-in provider's keys and encrypted settings open only with the key they
 * were sealed with: a restore next to another key would start a server that cannot read them.
 */
async function refuseOtherKey(
  config: Config,
  keyFile: string,
  archivedKey: Buffer | undefined,
  manifest: Manifest,
): Promise<void> {
  if (!archivedKey) {
    if (manifest.secretKey === "environment" && !config.secretKey) {
      throw new BackupRefused(
        "the backed-up server used ASSAY_SECRET_KEY; set it to the same value and run the restore again. Nothing was changed.",
      );
    }
    return;
  }
  const current =
    config.secretKey ??
    (existsSync(keyFile) ? decodeSecretKey(await readFile(keyFile, "utf8")) : undefined);
  if (current && !current.equals(archivedKey)) {
    throw new BackupRefused(
      `the archive's secret key differs from ${config.secretKey ? "ASSAY_SECRET_KEY" : keyFile}; restore into an empty data folder (or unset ASSAY_SECRET_KEY). Nothing was changed.`,
    );
  }
}
