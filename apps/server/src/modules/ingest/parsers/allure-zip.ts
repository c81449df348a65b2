import { Transform, type Readable, type TransformCallback } from "node:stream";
import yauzl, { type Entry, type ZipFile } from "yauzl";
import {
  checkDeclaredSize,
  checkKind,
  checkName,
  checkOverlaps,
  mib,
  refuse,
  ZIP_LIMITS,
  type ZipLimits,
} from "./allure-zip-checks.js";
import { ReportError, type ReportFile, type UploadFiles } from "./types.js";

export { ZIP_LIMITS, ZIP_MAGIC, type ZipLimits } from "./allure-zip-checks.js";

/** The files of a zip upload, by their path inside the archive (folders are not listed). */
export type ZipFiles = UploadFiles;

/** What the limiter knows of an entry: its sizes as declared, and how far it was inflated. */
export interface LimitedEntry {
  name: string;
  uncompressedSize: number;
  compressedSize: number;
  /** Most bytes any read of this entry has inflated; only growth counts against the total. */
  inflated: number;
}

interface EntryState extends LimitedEntry {
  entry: Entry;
}

/**
 * Opens a zip upload without extracting it: every entry is checked first (names that escape the
 * archive, absolute paths, symlinks, duplicates, encryption, unknown compression, overlapping
 * entries, entry count, declared sizes and ratios), then each file is inflated only when read,
 * through a counter that stops at the size its header declares and at the limits. Nothing is
 * written to disk; entry names are only keys.
 */
export async function openZip(
  file: ReportFile,
  limits: Partial<ZipLimits> = {},
): Promise<ZipFiles> {
  const lim: ZipLimits = { ...ZIP_LIMITS, ...limits };
  const buffer = await readWhole(file, lim.maxZipBytes);
  let zip: ZipFile;
  try {
    zip = await yauzl.fromBufferPromise(buffer, {
      lazyEntries: true,
      autoClose: false,
      // Names are decoded and checked here, to refuse them with a message a user can act on.
      decodeStrings: false,
      // Sizes are checked by EntryLimiter, which also applies the limits.
      validateEntrySizes: false,
    });
  } catch (error) {
    throw new ReportError(file.name, `not a readable zip archive (${(error as Error).message})`);
  }
  if (zip.entryCount > lim.maxEntries) {
    throw new ReportError(
      file.name,
      `the zip has ${zip.entryCount} entries; at most ${lim.maxEntries} are accepted: ` +
        "split it into several uploads into one run with the same run_key",
    );
  }
  const states = await readEntries(file.name, zip, lim, buffer.length);
  const budget = { inflated: 0 };
  const byName = new Map<string, ReportFile>();
  for (const state of states) {
    byName.set(state.name, {
      name: state.name,
      size: state.entry.uncompressedSize,
      open: () => openEntry(file.name, zip, state, lim, budget),
    });
  }
  const all = [...byName.values()];
  return { get: (name) => byName.get(name), all: () => all };
}

async function readWhole(file: ReportFile, max: number): Promise<Buffer> {
  const tooLarge = () =>
    new ReportError(file.name, `the zip is larger than ${mib(max)}; split the upload`);
  if (file.size > max) throw tooLarge();
  if (file.content) return file.content;
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of file.open()) {
    length += (chunk as Buffer).length;
    if (length > max) throw tooLarge();
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks, length);
}

async function readEntries(
  zipName: string,
  zip: ZipFile,
  lim: ZipLimits,
  zipBytes: number,
): Promise<EntryState[]> {
  const files: EntryState[] = [];
  const all: Entry[] = [];
  const seen = new Set<string>();
  let declaredTotal = 0;
  try {
    for await (const entry of zip.eachEntry()) {
      all.push(entry);
      const name = checkName(zipName, entry, lim);
      const key = name.normalize("NFC").toLowerCase();
      if (seen.has(key)) {
        throw refuse(zipName, name, "appears twice (names are compared ignoring case)");
      }
      seen.add(key);
      checkKind(zipName, name, entry);
      if (name.endsWith("/")) continue;
      checkDeclaredSize(zipName, name, entry, lim);
      declaredTotal += entry.uncompressedSize;
      if (declaredTotal > lim.maxTotalBytes) {
        throw new ReportError(
          zipName,
          `the zip's files add up to more than ${mib(lim.maxTotalBytes)} uncompressed`,
        );
      }
      files.push({
        name,
        entry,
        uncompressedSize: entry.uncompressedSize,
        compressedSize: entry.compressedSize,
        inflated: 0,
      });
    }
  } catch (error) {
    throw error instanceof ReportError ? error : corrupt(zipName, error);
  }
  checkOverlaps(zipName, all, zipBytes);
  return files;
}

function openEntry(
  zipName: string,
  zip: ZipFile,
  state: EntryState,
  lim: ZipLimits,
  budget: { inflated: number },
): Readable {
  const limiter = new EntryLimiter(zipName, state, lim, budget);
  zip.openReadStream(state.entry, (error, source) => {
    if (error) {
      limiter.destroy(corrupt(zipName, error, state.name));
      return;
    }
    source.on("error", (e) => limiter.destroy(corrupt(zipName, e, state.name)));
    // A reader that stops early must not leave the inflater running.
    limiter.on("close", () => source.destroy());
    source.pipe(limiter);
  });
  return limiter;
}

/**
 * Counts inflated bytes and stops the entry the moment its header proves a lie or a limit is
 * reached. The limits were checked against the declared sizes already; they are checked again
 * here so that no declared number alone decides how much is inflated.
 */
export class EntryLimiter extends Transform {
  private bytes = 0;

  constructor(
    private readonly zipName: string,
    private readonly state: LimitedEntry,
    private readonly lim: ZipLimits,
    private readonly budget: { inflated: number },
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.state.inflated) {
      this.budget.inflated += this.bytes - this.state.inflated;
      this.state.inflated = this.bytes;
    }
    const problem = this.problem();
    if (problem) done(refuse(this.zipName, this.state.name, problem));
    else done(null, chunk);
  }

  override _flush(done: TransformCallback): void {
    if (this.bytes < this.state.uncompressedSize) {
      done(refuse(this.zipName, this.state.name, "is shorter than its header says (truncated)"));
    } else done();
  }

  private problem(): string | undefined {
    const entry = this.state;
    if (this.bytes > entry.uncompressedSize) {
      return `inflates to more than the ${entry.uncompressedSize} bytes its header declares (a zip bomb?)`;
    }
    if (this.bytes > this.lim.maxEntryBytes) {
      return `is larger than ${mib(this.lim.maxEntryBytes)} uncompressed`;
    }
    if (
      this.bytes > this.lim.ratioFloorBytes &&
      this.bytes / Math.max(1, entry.compressedSize) > this.lim.maxRatio
    ) {
      return `expands more than ${this.lim.maxRatio} times (a zip bomb?)`;
    }
    if (this.budget.inflated > this.lim.maxTotalBytes) {
      return `takes the zip past ${mib(this.lim.maxTotalBytes)} uncompressed`;
    }
    return undefined;
  }
}

function corrupt(zipName: string, error: unknown, entryName?: string): ReportError {
  if (error instanceof ReportError) return error;
  const detail = (error as Error).message;
  return entryName
    ? refuse(zipName, entryName, `cannot be read: the zip is corrupt (${detail})`)
    : new ReportError(zipName, `the zip is corrupt (${detail})`);
}
