import { createHash, randomUUID } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdir, open, readdir, readFile, rename, stat, unlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { AppError } from "../errors.js";
import {
  safeContentType,
  validateKey,
  type ObjectStore,
  type PutResult,
  type StoredObject,
} from "./object-store.js";
import { isProcessAlive } from "../process-alive.js";

/** What the sidecar next to each object holds. */
interface Meta {
  contentType: string;
  etag: string;
}

const isMissing = (error: unknown) => (error as NodeJS.ErrnoException).code === "ENOENT";
const DISK_FULL = new Set(["ENOSPC", "EDQUOT"]);
/**
 * Half-written objects and their metadata, until renamed into place: one folder (no key can
 * name it: segments never start with a dot), so that a start finds what a killed process left
 * without walking the store. Each file is named `<pid>-<uuid>.tmp` (and `.tmp.meta`).
 */
const PARTIAL = ".partial";
/** A half-written file older than this is left over whatever its process. */
const PARTIAL_MAX_AGE_MS = 24 * 60 * 60 * 1000;

/**
 * Objects as files under one folder (by default `<ASSAY_DATA_DIR>/objects`), for a single
 * machine. The key is the relative path. A hidden file next to an object holds its metadata
 * (`.<name>.meta.json`), and half-written data waits in `.partial/`; keys cannot name either,
 * since no key segment may start with a dot.
 */
export class LocalObjectStore implements ObjectStore {
  readonly root: string;

  constructor(root: string) {
    this.root = path.resolve(root);
  }

  /**
   * Creates the root folder, so that an unwritable data folder stops the start, not an upload,
   * and removes the half-written files of processes killed during a put; returns how many.
   */
  async init(): Promise<number> {
    await mkdir(path.join(this.root, PARTIAL), { recursive: true });
    return this.removeDeadPartials();
  }

  /**
   * Half-written files whose process is gone, or that this process's pid wrote before it
   * started (a container restarts with the same pid), or older than a day.
   */
  private async removeDeadPartials(): Promise<number> {
    const folder = path.join(this.root, PARTIAL);
    const startedMs = Date.now() - process.uptime() * 1000;
    let removed = 0;
    for (const name of await readdir(folder).catch(() => [] as string[])) {
      const file = path.join(folder, name);
      const pid = Number(/^(\d+)-/.exec(name)?.[1]);
      const modified = (await stat(file).catch(() => undefined))?.mtimeMs ?? 0;
      const left =
        !(pid > 0) ||
        Date.now() - modified > PARTIAL_MAX_AGE_MS ||
        (pid === process.pid ? modified < startedMs : !isProcessAlive(pid));
      if (!left) continue;
      await unlink(file).catch(() => undefined);
      removed++;
    }
    return removed;
  }

  /** The object's file; a key that resolves outside the root is refused as well as validated. */
  private fileOf(key: string): string {
    validateKey(key);
    const file = path.resolve(this.root, ...key.split("/"));
    if (!file.startsWith(this.root + path.sep)) {
      throw new AppError(400, "invalid_object_key", "Invalid object key: it leaves the store.");
    }
    return file;
  }

  private static metaOf(file: string): string {
    return path.join(path.dirname(file), `.${path.basename(file)}.meta.json`);
  }

  async put(
    key: string,
    body: Readable | Buffer,
    options: { contentType: string },
  ): Promise<PutResult> {
    const file = this.fileOf(key);
    const metaFile = LocalObjectStore.metaOf(file);
    const dir = path.dirname(file);
    const partial = path.join(this.root, PARTIAL);
    const temp = path.join(partial, `${process.pid}-${randomUUID()}.tmp`);
    const metaTemp = `${temp}.meta`;
    const hash = createHash("md5");
    let size = 0;
    // A body that fails (its client went away) while the folders are made has nobody reading it
    // yet: without a listener from the start, its 'error' event would end the process.
    let failed: Error | undefined;
    const onError = (error: Error) => (failed ??= error);
    if (!Buffer.isBuffer(body)) body.on("error", onError);
    try {
      await mkdir(dir, { recursive: true });
      await mkdir(partial, { recursive: true });
      if (failed) throw failed;
      const source = Buffer.isBuffer(body) ? Readable.from([body]) : body;
      await pipeline(
        source,
        async function* (chunks: AsyncIterable<Buffer>) {
          for await (const chunk of chunks) {
            hash.update(chunk);
            size += chunk.length;
            yield chunk;
          }
        },
        createWriteStream(temp, { flags: "wx" }),
      );
      await syncFile(temp);
      const meta: Meta = {
        contentType: safeContentType(options.contentType),
        etag: `"${hash.digest("hex")}"`,
      };
      await writeFile(metaTemp, JSON.stringify(meta), { flag: "wx" });
      // Metadata first: a visible object file then always has its metadata beside it.
      await rename(metaTemp, metaFile);
      await rename(temp, file);
      await syncDir(dir);
      return { key, size, etag: meta.etag };
    } catch (error) {
      // A body not yet read (the folder could not be made) must not hold its request open.
      if (!Buffer.isBuffer(body)) body.destroy();
      await Promise.all([temp, metaTemp].map((f) => unlink(f).catch(() => undefined)));
      const code = (error as NodeJS.ErrnoException).code;
      if (code && DISK_FULL.has(code)) {
        throw new AppError(507, "storage_full", "The object store is out of space; try later.");
      }
      throw error;
    }
  }

  async get(key: string): Promise<StoredObject | undefined> {
    const file = this.fileOf(key);
    let handle;
    try {
      // Opened before reading the metadata, so a delete in between cannot serve half an object.
      handle = await open(file, "r");
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
    try {
      const stat = await handle.stat();
      if (!stat.isFile()) {
        await handle.close();
        return undefined;
      }
      const meta = await readMeta(LocalObjectStore.metaOf(file));
      return {
        body: handle.createReadStream(),
        size: stat.size,
        contentType: meta?.contentType ?? "application/octet-stream",
        etag: meta?.etag ?? `"${stat.size.toString(16)}-${stat.mtimeMs.toString(16)}"`,
        lastModified: stat.mtime,
      };
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    const file = this.fileOf(key);
    for (const f of [file, LocalObjectStore.metaOf(file)]) {
      await unlink(f).catch((error: unknown) => {
        if (!isMissing(error)) throw error;
      });
    }
  }

  /** Files whose names do not start with a dot: metadata and temp files are dot-named. */
  async *list(): AsyncIterable<string> {
    const folders = [""];
    for (let folder = folders.pop(); folder !== undefined; folder = folders.pop()) {
      const entries = await readdir(path.join(this.root, folder), { withFileTypes: true }).catch(
        (error: unknown) => {
          if (isMissing(error)) return [];
          throw error;
        },
      );
      for (const entry of entries) {
        if (entry.name.startsWith(".")) continue;
        const key = folder ? `${folder}/${entry.name}` : entry.name;
        if (entry.isDirectory()) folders.push(key);
        else if (entry.isFile()) yield key;
      }
    }
  }
}

async function readMeta(file: string): Promise<Meta | undefined> {
  try {
    return JSON.parse(await readFile(file, "utf8")) as Meta;
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}

/** Flushes the file to disk: an object acknowledged to a client must survive a power cut. */
async function syncFile(file: string): Promise<void> {
  const handle = await open(file, "r+");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Makes the rename durable; some platforms cannot sync a folder, which is then skipped. */
async function syncDir(dir: string): Promise<void> {
  try {
    const handle = await open(dir, "r");
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Windows refuses to open a folder for sync; the rename itself has happened.
  }
}
