import yauzl, { type Entry } from "yauzl";
import { ReportError } from "./types.js";

/** What a zip upload may hold; any entry or archive beyond these is refused, not truncated. */
export interface ZipLimits {
  /** The archive is held in memory (yauzl needs random access and ReportFile is a stream). */
  maxZipBytes: number;
  /**
   * A 10k-test allure-results folder has ~15,000 files; each entry costs a little memory and
   * work before a byte is inflated, so the count is bounded as the upload's files are.
   */
  maxEntries: number;
  maxNameLength: number;
  maxEntryBytes: number;
  /** Uncompressed bytes of all entries together, declared and then counted while inflating. */
  maxTotalBytes: number;
  /** Uncompressed/compressed; real reports stay far below it, bombs far above. */
  maxRatio: number;
  /** Below this size the ratio is not checked: small repetitive JSON compresses very well. */
  ratioFloorBytes: number;
}

const MIB = 1024 * 1024;

export const ZIP_LIMITS: Readonly<ZipLimits> = {
  maxZipBytes: 256 * MIB,
  maxEntries: 100_000,
  maxNameLength: 1024,
  maxEntryBytes: 100 * MIB,
  maxTotalBytes: 512 * MIB,
  maxRatio: 100,
  ratioFloorBytes: MIB,
};

export const ZIP_MAGIC = "PK\u0003\u0004";

const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;
const FLAG_ENCRYPTED = 0x1;
const METHOD_STORED = 0;
const METHOD_DEFLATED = 8;
const LOCAL_HEADER_BYTES = 30;

/** The entry's name, once it is known to stay inside the archive: a key, never a disk path. */
export function checkName(zipName: string, entry: Entry, lim: ZipLimits): string {
  // Backslashes become slashes here, so `..\..\x` is caught as a parent reference below.
  const name = yauzl.getFileNameLowLevel(
    entry.generalPurposeBitFlag,
    entry.fileNameRaw,
    entry.extraFields,
    false,
  );
  if (name.length > lim.maxNameLength) {
    throw refuse(zipName, name, `has a name longer than ${lim.maxNameLength} characters`);
  }
  if (name.includes("\0")) throw refuse(zipName, name, "has a NUL character in its name");
  if (name.startsWith("/") || /^[a-zA-Z]:/.test(name)) {
    throw refuse(zipName, name, "is an absolute path");
  }
  if (hasParentSegment(name) || hasParentSegment(percentDecoded(name))) {
    throw refuse(zipName, name, "points outside the archive's folder (..)");
  }
  return name;
}

function hasParentSegment(name: string): boolean {
  return name.split("/").includes("..");
}

/** `%2e%2e/` is harmless as a key, but a consumer that decodes names must not meet it either. */
function percentDecoded(name: string): string {
  try {
    return decodeURIComponent(name).replace(/\\/g, "/");
  } catch {
    return name;
  }
}

/** Only regular files and folders, unencrypted, stored or deflated, are read. */
export function checkKind(zipName: string, name: string, entry: Entry): void {
  if (((entry.externalFileAttributes >>> 16) & S_IFMT) === S_IFLNK) {
    throw refuse(zipName, name, "is a symbolic link; links are refused");
  }
  if (entry.generalPurposeBitFlag & FLAG_ENCRYPTED) {
    throw refuse(zipName, name, "is encrypted; upload an unencrypted zip");
  }
  const method = entry.compressionMethod;
  if (method !== METHOD_STORED && method !== METHOD_DEFLATED) {
    throw refuse(
      zipName,
      name,
      `uses compression method ${method}; only stored and deflated entries are read`,
    );
  }
}

/** Refuses an entry by its declared sizes, before a byte of it is inflated. */
export function checkDeclaredSize(
  zipName: string,
  name: string,
  entry: Entry,
  lim: ZipLimits,
): void {
  const size = entry.uncompressedSize;
  if (entry.compressionMethod === METHOD_STORED && entry.compressedSize !== size) {
    throw refuse(zipName, name, "is stored uncompressed but declares two different sizes");
  }
  if (size > lim.maxEntryBytes) {
    throw refuse(zipName, name, `is larger than ${mib(lim.maxEntryBytes)} uncompressed`);
  }
  if (size > lim.ratioFloorBytes && size / Math.max(1, entry.compressedSize) > lim.maxRatio) {
    throw refuse(zipName, name, `expands more than ${lim.maxRatio} times (a zip bomb?)`);
  }
}

/**
 * Entries sharing compressed data let a small archive inflate to many times its size (the
 * non-recursive zip bomb), so each entry's data must end before the next local header starts.
 */
export function checkOverlaps(zipName: string, entries: Entry[], zipBytes: number): void {
  const sorted = [...entries].sort(
    (a, b) => a.relativeOffsetOfLocalHeader - b.relativeOffsetOfLocalHeader,
  );
  for (let i = 0; i < sorted.length; i++) {
    const entry = sorted[i]!;
    const end =
      entry.relativeOffsetOfLocalHeader +
      LOCAL_HEADER_BYTES +
      entry.fileNameLength +
      entry.compressedSize;
    const next = sorted[i + 1]?.relativeOffsetOfLocalHeader ?? zipBytes;
    if (end > next) {
      throw new ReportError(zipName, "zip entries overlap each other (a zip bomb?); refused");
    }
  }
}

/** A refusal naming the entry, its name cut short if a hostile one is very long. */
export function refuse(zipName: string, entryName: string, problem: string): ReportError {
  const shown = entryName.length > 200 ? `${entryName.slice(0, 200)}…` : entryName;
  return new ReportError(zipName, `zip entry ${JSON.stringify(shown)} ${problem}`);
}

/** "100 MiB", or bytes for small limits (tests use those). */
export function mib(bytes: number): string {
  return bytes >= MIB ? `${Math.round(bytes / MIB)} MiB` : `${bytes} bytes`;
}
