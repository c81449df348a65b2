import { randomUUID } from "node:crypto";
import { pipeline, Readable } from "node:stream";
import {
  appendFileSync,
  closeSync,
  mkdirSync,
  createReadStream,
  existsSync,
  openSync,
  readSync,
  statSync,
  unlinkSync,
} from "node:fs";
import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import type { ObjectStore } from "../../storage/index.js";
import * as repo from "./builds.repo.js";
import type { BuildRow } from "./builds.repo.js";
import type { LogText, RemoteLogReader } from "./executors/cloudwatch-logs.js";
import { logPathOf } from "./executors/local.js";
import type { SecretMask } from "./builds.mask.js";

/**
 * Build logs: a local build writes its output to a file in the data folder while it runs; when it
 * ends the file moves to object storage (builds.log_key). A CodeBuild build's log is read from
 * CloudWatch Logs, where CodeBuild keeps it (builds.remote_log names the stream), for the tail
 * and the download alike; a GitHub Actions run's from its jobs' logs.
 */

export interface LogDeps {
  db: Kysely<Database>;
  objects: ObjectStore;
  logDir: string;
  /** The reader of a remote build's log, when its executor has one. */
  remote: (row: BuildRow) => RemoteLogReader | undefined;
  /** What is masked in this build's log (builds.mask.ts): its tokens and credentials. */
  mask: (row: BuildRow) => Promise<SecretMask>;
}

/** The line each try of a local build's log starts with, so tries never run into each other. */
export function appendMarker(logDir: string, buildId: number, words: string): void {
  mkdirSync(logDir, { recursive: true });
  appendFileSync(logPathOf(logDir, buildId), `\n===== ${words} =====\n`);
}

/** The tail of a remote build's log; a log that cannot be read says why, and where it is. */
async function remoteTail(deps: LogDeps, row: BuildRow, maxBytes: number): Promise<LogText> {
  const reader = deps.remote(row);
  const where = row.external_url ? ` Its log is at ${row.external_url}.` : "";
  if (!row.remote_log || !reader) {
    return {
      text: `This build runs on ${row.executor_kind}; it has not named its log yet.${where}`,
      truncated: false,
      bytes: 0,
    };
  }
  try {
    return await reader.tail(row.remote_log, maxBytes);
  } catch (error) {
    const name = (error as { name?: string }).name ?? "Error";
    const store = row.remote_log.kind === "cloudwatch" ? "CloudWatch Logs" : "GitHub";
    const why =
      name === "ResourceNotFoundException"
        ? `${store} has no events for it yet`
        : `reading it from ${store} failed (${name}: ${(error as Error).message})`;
    return {
      text: `The log of this build could not be shown: ${why}.${where}`,
      truncated: false,
      bytes: 0,
    };
  }
}

/** Moves a finished local build's log into object storage, its secrets masked. */
export async function keepLocalLog(deps: LogDeps, row: BuildRow): Promise<void> {
  const buildId = row.id;
  const file = logPathOf(deps.logDir, buildId);
  if (!existsSync(file)) return;
  const key = `build-logs/${buildId}/${randomUUID()}.log`;
  const mask = await deps.mask(row);
  // pipeline, not pipe: a file that cannot be read fails the put instead of throwing unhandled.
  const body = pipeline(createReadStream(file), mask.stream(), () => {});
  const stored = await deps.objects.put(key, body, {
    contentType: "text/plain; charset=utf-8",
  });
  await repo.setLog(deps.db, buildId, key, stored.size);
  unlinkSync(file);
}

/**
 * Tail of a build's log (live file while it runs, else the stored object), its secrets masked:
 * a little more than the tail is read, so a secret cut by the tail's start is masked whole.
 */
export async function logTail(
  deps: LogDeps,
  row: BuildRow,
  maxBytes: number,
): Promise<{ text: string; truncated: boolean; bytes: number }> {
  const mask = await deps.mask(row);
  const read = await rawTail(deps, row, maxBytes + mask.longest);
  // What was read before the extra part may be the end of a secret cut by the read's start.
  const masked = mask.apply(read.text).slice(read.truncated ? mask.longest : 0);
  const cut = Buffer.byteLength(masked) > maxBytes;
  return {
    text: cut ? Buffer.from(masked).subarray(-maxBytes).toString("utf8") : masked,
    truncated: read.truncated || cut,
    bytes: read.bytes,
  };
}

async function rawTail(
  deps: LogDeps,
  row: BuildRow,
  maxBytes: number,
): Promise<{ text: string; truncated: boolean; bytes: number }> {
  const local =
    row.log_key === null ? localTail(logPathOf(deps.logDir, row.id), maxBytes) : undefined;
  if (local) return local;
  const key = await storedKey(deps, row);
  if (key !== null) {
    const object = await deps.objects.get(key);
    if (object) {
      // Only the last maxBytes are kept while the object streams past.
      let tail = Buffer.alloc(0);
      for await (const chunk of object.body) {
        tail = Buffer.concat([tail, chunk as Buffer]);
        if (tail.length > maxBytes) tail = tail.subarray(tail.length - maxBytes);
      }
      return { text: tail.toString("utf8"), truncated: object.size > maxBytes, bytes: object.size };
    }
  }
  if (row.executor_kind !== "local") return remoteTail(deps, row, maxBytes);
  return { text: "", truncated: false, bytes: 0 };
}

/** The last maxBytes of a running build's log file, or undefined when there is no file. */
function localTail(file: string, maxBytes: number) {
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  try {
    const bytes = statSync(file).size;
    const length = Math.min(bytes, maxBytes);
    const buffer = Buffer.alloc(length);
    readSync(fd, buffer, 0, length, bytes - length);
    return { text: buffer.toString("utf8"), truncated: bytes > maxBytes, bytes };
  } finally {
    closeSync(fd);
  }
}

/**
 * The key of the build's stored log. A local build that ended after the caller read its row has
 * moved its file to object storage meanwhile (keepLocalLog sets the key before it removes the
 * file), so a missing file means the row is read again rather than the log shown empty.
 */
async function storedKey(deps: LogDeps, row: BuildRow): Promise<string | null> {
  if (row.log_key !== null || row.executor_kind !== "local") return row.log_key;
  return (await repo.findBuild(deps.db, row.id))?.log_key ?? null;
}

/** The whole log as a stream, its secrets masked, or undefined when there is none (yet). */
export async function logStream(
  deps: LogDeps,
  row: BuildRow,
): Promise<NodeJS.ReadableStream | undefined> {
  const raw = await rawStream(deps, row);
  return raw && raw.pipe((await deps.mask(row)).stream());
}

async function rawStream(deps: LogDeps, row: BuildRow): Promise<NodeJS.ReadableStream | undefined> {
  if (row.log_key !== null) return (await deps.objects.get(row.log_key))?.body;
  const reader = deps.remote(row);
  if (row.remote_log && reader) return Readable.from(reader.all(row.remote_log));
  const file = logPathOf(deps.logDir, row.id);
  // The file is opened before it is streamed, so one removed by the build's end meanwhile is
  // found in object storage instead of failing the download half-way.
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    const key = await storedKey(deps, row);
    return key === null ? undefined : (await deps.objects.get(key))?.body;
  }
  return createReadStream(file, { fd });
}
