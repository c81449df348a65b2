import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { Transform, type Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { deriveKey } from "../secret-key.js";

/**
 * The layout of an Assay backup: a gzipped tar holding `manifest.json`, one file per table
 * (`tables/<name>.copy`, PostgreSQL's text COPY format), one file per object
 * (`objects/<n>`, named by number: keys are recorded in the manifest, never used as paths)
 * and, for an embedded install, the `secret-key` file.
 */

/** A backup or restore refused for a reason the user can fix: one line, exit code 1. */
export class BackupRefused extends Error {
  override name = "BackupRefused";
}

export const ARCHIVE_FORMAT = "assay-backup";
export const ARCHIVE_FORMAT_VERSION = 1;
export const MANIFEST_FILE = "manifest.json";

export interface TableEntry {
  name: string;
  columns: string[];
  rows: number;
  sha256: string;
  file: string;
}

export interface ObjectEntry {
  key: string;
  size: number;
  contentType: string;
  sha256: string;
  file: string;
}

export interface Manifest {
  format: typeof ARCHIVE_FORMAT;
  formatVersion: number;
  createdAt: string;
  /** The newest migration of the database backed up: the schema the rows fit. */
  migration: number;
  database: "embedded" | "external";
  objectStore: "local" | "s3";
  tables: TableEntry[];
  objects: ObjectEntry[];
  /**
   * Objects listed by the store but deleted before they could be copied (a run deleted during
   * the backup): recorded so that a restore can say so, rather than fail on a missing file.
   */
  vanishedObjects: string[];
  /** Objects stored after the database snapshot (uploads still in flight): not referenced by it. */
  skippedUnreferencedObjects: number;
  /** "file": the archive holds the data folder's secret-key; "environment": ASSAY_SECRET_KEY. */
  secretKey: "file" | "environment" | "none";
  /**
   * Proof of the secret key the backed-up server used, never the key itself (keyCheckOf):
   * a restore compares it with the key it would start with before it changes anything.
   * Absent from archives made before it existed; those restore unchecked.
   */
  keyCheck?: string;
}

/** A fixed message whose HMAC, under a key derived for this one purpose, identifies the key. */
const KEY_CHECK_MESSAGE = "assay backup key check v1";

/**
 * The archive's key check value: HMAC-SHA256 of a constant under a key derived from the secret
 * key (HKDF, purpose "backup-key-check"). It tells whether two keys are the same and reveals
 * nothing of them, nor of the keys derived for other purposes.
 */
export function keyCheckOf(secret: Buffer): string {
  return createHmac("sha256", deriveKey(secret, "backup-key-check"))
    .update(KEY_CHECK_MESSAGE)
    .digest("hex");
}

/** Whether `check` (from a manifest) is the check value of `secret`. */
export function keyCheckMatches(check: string, secret: Buffer): boolean {
  const expected = Buffer.from(keyCheckOf(secret), "hex");
  const given = Buffer.from(check, "hex");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Writes `source` to `file`, giving its SHA-256, its size and how many newlines it held. */
export async function writeCounted(
  source: Readable,
  file: string,
): Promise<{ sha256: string; size: number; lines: number }> {
  const hash = createHash("sha256");
  let size = 0;
  let lines = 0;
  const count = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      size += chunk.length;
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
      done(null, chunk);
    },
  });
  await pipeline(source, count, createWriteStream(file, { flags: "wx", mode: 0o600 }));
  return { sha256: hash.digest("hex"), size, lines };
}

export async function sha256OfFile(file: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/** Every UUID written in a table file: object keys are made with one (newObjectKey). */
export async function uuidsIn(file: string, into: Set<string>): Promise<void> {
  let carry = "";
  for await (const chunk of createReadStream(file, { encoding: "utf8" })) {
    const text = carry + (chunk as string);
    for (const match of text.matchAll(UUID)) into.add(match[0].toLowerCase());
    carry = text.slice(-35);
  }
}

/**
 * Whether a snapshot refers to the object: its key's UUID occurs in some table. A key without a
 * UUID is kept, since it cannot be told apart.
 */
export function isReferenced(key: string, uuids: ReadonlySet<string>): boolean {
  const found = key.match(UUID);
  if (!found) return true;
  return found.some((uuid) => uuids.has(uuid.toLowerCase()));
}
