import { createHash, randomUUID } from "node:crypto";
import { createReadStream } from "node:fs";
import { mkdtemp, open, readdir, rm, writeFile, type FileHandle } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import type { ReportFile, UploadFiles } from "../parsers/types.js";
import { isProcessAlive } from "../../../process-alive.js";

const SPOOL_PREFIX = "assay-upload-";

/**
 * Removes the spool folders of Assay processes that died with uploads in flight (kill -9, the
 * OOM killer): a dispose never ran for them. Folders of live processes, this machine's other
 * Assay servers included, are left alone. Returns how many were removed.
 */
export async function removeDeadSpools(dir = tmpdir()): Promise<number> {
  let removed = 0;
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    const pid = Number(/^assay-upload-(\d+)-/.exec(name)?.[1]);
    if (!(pid > 0) || pid === process.pid || isProcessAlive(pid)) continue;
    await rm(path.join(dir, name), { recursive: true, force: true });
    removed++;
  }
  return removed;
}

/** A spooled upload file: readable any number of times, with the hash of its content. */
export interface SpooledFile extends ReportFile {
  sha256: string;
  /** Where it is on disk, when it is not held in memory (`content`). */
  path?: string;
}

/**
 * Files up to this size are kept in memory rather than written to disk: a results folder is
 * thousands of small JSON files, each read several times (sniffed, planned, converted), and a
 * file system round trip per read costs far more than the bytes. Reports and attachments above
 * it go to disk and are streamed from there.
 */
export const MEMORY_FILE_BYTES = 1024 * 1024;
/**
 * A file going to disk is written in pieces of about this size: the network hands it over in
 * chunks of 16-64 KB, and one write each made spooling a 31 MB report take about a second.
 */
const DISK_WRITE_BYTES = 1024 * 1024;
/** What all uploads in progress keep in memory together; beyond it, files go to disk. */
export const MEMORY_TOTAL_BYTES = 128 * 1024 * 1024;

/** Bytes of upload files held in memory, shared by the uploads in progress. */
export class MemoryBudget {
  private used = 0;

  constructor(readonly limit: number) {}

  get inUse(): number {
    return this.used;
  }

  /** Reserves `bytes` if they fit. */
  take(bytes: number): boolean {
    if (this.used + bytes > this.limit) return false;
    this.used += bytes;
    return true;
  }

  give(bytes: number): void {
    this.used -= bytes;
  }
}

const SHARED_BUDGET = new MemoryBudget(MEMORY_TOTAL_BYTES);

export interface SpoolOptions {
  /** Default: one budget of MEMORY_TOTAL_BYTES for the whole process. */
  budget?: MemoryBudget;
  /** Default: MEMORY_FILE_BYTES. */
  maxMemoryFileBytes?: number;
}

/**
 * The client's file name as a relative path for matching references ("screenshots/a.png"):
 * backslashes, drive letters, leading slashes and "." / ".." segments are dropped. It is never
 * used as a path on disk: spooled files get random names.
 */
export function uploadName(clientName: string): string {
  const parts = clientName
    .replace(/\\/g, "/")
    .replace(/^[a-zA-Z]:/, "")
    .split("/")
    .filter((part) => part !== "" && part !== "." && part !== "..");
  return parts.join("/") || "upload";
}

/**
 * The files of one upload: small ones in memory (within a budget), the others spooled to a
 * private temporary folder. `dispose` gives the memory back and removes the folder.
 */
export class Spool implements UploadFiles {
  private readonly files: SpooledFile[] = [];
  private readonly byName = new Map<string, SpooledFile>();
  private memoryBytes = 0;

  private constructor(
    private readonly dir: string,
    private readonly budget: MemoryBudget,
    private readonly maxMemoryFileBytes: number,
  ) {}

  static async create(options: SpoolOptions = {}): Promise<Spool> {
    return new Spool(
      // The process id in the name lets a later start tell a killed process's folders apart.
      await mkdtemp(path.join(tmpdir(), `${SPOOL_PREFIX}${process.pid}-`)),
      options.budget ?? SHARED_BUDGET,
      options.maxMemoryFileBytes ?? MEMORY_FILE_BYTES,
    );
  }

  /** Reads one file, hashing it on the way; it stays in memory if small enough, else on disk. */
  async add(clientName: string, content: Readable): Promise<SpooledFile> {
    const hash = createHash("sha256");
    const chunks: Buffer[] = [];
    let size = 0;
    let disk: { file: string; handle: FileHandle } | undefined;
    let unwritten = 0;
    try {
      for await (const chunk of content as AsyncIterable<Buffer>) {
        hash.update(chunk);
        size += chunk.length;
        chunks.push(chunk);
        unwritten += chunk.length;
        if (!disk && size > this.maxMemoryFileBytes) disk = await this.diskFile();
        if (disk && unwritten >= DISK_WRITE_BYTES) {
          await writeAll(disk.handle, chunks, unwritten);
          chunks.length = 0;
          unwritten = 0;
        }
      }
      if (disk && unwritten > 0) await writeAll(disk.handle, chunks, unwritten);
    } finally {
      await disk?.handle.close();
    }
    const name = this.uniqueName(uploadName(clientName));
    const sha256 = hash.digest("hex");
    let spooled: SpooledFile;
    if (disk) spooled = onDisk(name, size, sha256, disk.file);
    else if (this.budget.take(size)) {
      this.memoryBytes += size;
      spooled = inMemory(name, sha256, copyOf(chunks, size));
    } else {
      const file = path.join(this.dir, randomUUID());
      await writeFile(file, Buffer.concat(chunks, size), { mode: 0o600 });
      spooled = onDisk(name, size, sha256, file);
    }
    this.files.push(spooled);
    this.byName.set(name, spooled);
    return spooled;
  }

  get(name: string): SpooledFile | undefined {
    return this.byName.get(name);
  }

  all(): readonly SpooledFile[] {
    return this.files;
  }

  async dispose(): Promise<void> {
    this.budget.give(this.memoryBytes);
    this.memoryBytes = 0;
    await rm(this.dir, { recursive: true, force: true });
  }

  private async diskFile(): Promise<{ file: string; handle: FileHandle }> {
    const file = path.join(this.dir, randomUUID());
    return { file, handle: await open(file, "w", 0o600) };
  }

  private uniqueName(name: string): string {
    if (!this.byName.has(name)) return name;
    for (let n = 2; ; n++) {
      const candidate = `${name} (${n})`;
      if (!this.byName.has(candidate)) return candidate;
    }
  }
}

function onDisk(name: string, size: number, sha256: string, file: string): SpooledFile {
  return { name, size, sha256, path: file, open: () => createReadStream(file) };
}

function inMemory(name: string, sha256: string, content: Buffer): SpooledFile {
  return {
    name,
    size: content.length,
    sha256,
    content,
    open: () => Readable.from([content], { objectMode: false }),
  };
}

/**
 * The chunks in a buffer of their own: a chunk is often a slice of a larger socket buffer,
 * which keeping the slice would keep alive too. Shared memory, so that posting the file to the
 * parse worker shares it instead of copying it (the whole in-memory budget could be there twice).
 */
function copyOf(chunks: readonly Buffer[], size: number): Buffer {
  const content = Buffer.from(new SharedArrayBuffer(size));
  let offset = 0;
  for (const chunk of chunks) offset += chunk.copy(content, offset);
  return content;
}

/**
 * Writes `chunks` (`bytes` in all) at the file's position, with writev and no copy: joining
 * them first allocated a new megabyte per write, which stayed in the process's malloc heap until
 * V8 next collected its buffer. libuv writes them all (IOV_MAX at a time); a short write, which a
 * regular file should not give, is finished with write().
 */
async function writeAll(handle: FileHandle, chunks: readonly Buffer[], bytes: number) {
  const { bytesWritten } = await handle.writev(chunks);
  if (bytesWritten === bytes) return;
  const rest = Buffer.concat(chunks, bytes).subarray(bytesWritten);
  for (let offset = 0; offset < rest.length;) {
    offset += (await handle.write(rest, offset)).bytesWritten;
  }
}
