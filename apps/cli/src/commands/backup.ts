import { parseArgs } from "node:util";
import {
  backupInstallation,
  createLogger,
  loadConfig,
  restoreInstallation,
  BackupRefused,
} from "@assay/server";
import { KnownError } from "../errors.js";

export const backupUsage = `Usage: assay backup FILE

Writes one archive (a gzipped tar) of the database and the object store to FILE while the
server keeps serving: every table read in one consistent snapshot, every screenshot and
attachment it refers to, and the data folder's secret key (so keep the archive private).
Uses DATABASE_URL when set, otherwise the embedded PostgreSQL in ASSAY_DATA_DIR (shared with a
running server); the object store is the configured one (local folder or S3).

Examples:
  npx assay backup backups/assay-$(date +%F).tar.gz
  DATABASE_URL=postgres://assay@db:5432/assay npx assay backup /srv/backups/assay.tar.gz`;

export const restoreUsage = `Usage: assay restore FILE

Restores an archive written by "assay backup" into an empty installation: an empty data folder
(ASSAY_DATA_DIR) or an empty database (DATABASE_URL) and object store. The archive is checked
(every file against its checksum, and the secret key the restored server will start with against
the archive's key check value) before anything is written, and the tables load in one
transaction: a failure leaves the database as it was. Stop the server first.

Examples:
  ASSAY_DATA_DIR=/srv/assay-new npx assay restore assay-2026-11-26.tar.gz
  DATABASE_URL=postgres://assay@db:5432/assay_new npx assay restore assay.tar.gz`;

function fileArgument(argv: string[], command: string, usage: string): string {
  const { positionals } = parseArgs({ args: argv, allowPositionals: true, strict: true });
  if (positionals.length !== 1) {
    throw new KnownError(`${command} needs exactly one FILE.\n\n${usage}`);
  }
  return positionals[0]!;
}

export async function backup(argv: string[]): Promise<void> {
  const file = fileArgument(argv, "backup", backupUsage);
  const config = loadConfig();
  let summary;
  try {
    summary = await backupInstallation(config, createLogger(config.logLevel), file);
  } catch (error) {
    if (error instanceof BackupRefused) throw new KnownError(error.message);
    throw error;
  }
  const megabytes = (summary.objectBytes / 1e6).toFixed(1);
  console.log(
    `Wrote ${summary.file}: ${summary.rows} rows in ${summary.tables} tables, ${summary.objects} objects (${megabytes} MB).`,
  );
  if (summary.skippedUnreferencedObjects > 0) {
    console.log(
      `Left out ${summary.skippedUnreferencedObjects} objects of uploads still in flight (not in the snapshot).`,
    );
  }
  if (summary.vanishedObjects > 0) {
    console.log(`${summary.vanishedObjects} objects were deleted while the backup ran.`);
  }
}

export async function restore(argv: string[]): Promise<void> {
  const file = fileArgument(argv, "restore", restoreUsage);
  const config = loadConfig();
  try {
    const summary = await restoreInstallation(config, createLogger(config.logLevel), file);
    console.log(
      `Restored ${summary.rows} rows in ${summary.tables} tables and ${summary.objects} objects from ${file} (made ${summary.manifest.createdAt}).`,
    );
    if (summary.keyChecked === false) {
      console.log(
        "This archive was made before backups recorded a key check, so the secret key was not checked: start the server with the backed-up server's ASSAY_SECRET_KEY.",
      );
    }
  } catch (error) {
    if (error instanceof BackupRefused) throw new KnownError(error.message);
    throw error;
  }
}
