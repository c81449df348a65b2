import { randomBytes } from "node:crypto";
import { createReadStream, readFile } from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { promisify } from "node:util";

/*
 * A multipart/form-data body streamed from disk: the one encoder of `assay upload`, the bench
 * and the demo. A results folder is thousands of small files:
 * opening them all up front (a read stream each) runs out of file descriptors, and reading them
 * one after another leaves the connection idle during every open/read/close. So each file is
 * opened only when the body comes within READ_AHEAD files of it, and read while the parts before
 * it are being sent: memory and open descriptors stay bounded whatever the number of files.
 */

/** A file read from disk as the body reaches it. */
export interface FileOnDisk {
  /** Name sent to the server. */
  name: string;
  path: string;
  /** Size when the upload was planned: the body's length is announced before it is sent. */
  size: number;
}

/** A file already in memory (the demo's generated reports). */
export interface FileInMemory {
  name: string;
  content: Buffer;
}

export type MultipartFile = FileOnDisk | FileInMemory;

const sizeOf = (file: MultipartFile) => ("content" in file ? file.content.length : file.size);

export interface MultipartBody {
  contentType: string;
  /** Bytes of the whole body, for Content-Length. */
  length: number;
  /** A new stream of the body: a retry sends it again from the start. */
  open(): Readable;
}

/** Files being read ahead of the one being sent: at most this many descriptors at once. */
export const READ_AHEAD = 32;
/** Files up to this size are read ahead whole; larger ones are streamed when their turn comes. */
const READ_AHEAD_MAX_BYTES = 1024 * 1024;
/** Small parts are gathered into chunks of about this size, so each is not a write of its own. */
const CHUNK_BYTES = 64 * 1024;

// The callback readFile: about twice as fast as fs/promises' on thousands of small files here.
const readWhole = promisify(readFile);

const TYPES: Record<string, string> = {
  ".json": "application/json",
  ".xml": "application/xml",
  ".txt": "text/plain",
  ".html": "text/html",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".webm": "video/webm",
  ".zip": "application/zip",
};

/** A header parameter as a quoted string: quotes and backslashes escaped, line breaks dropped. */
function quoted(value: string): string {
  return `"${value.replace(/[\r\n]/g, "").replace(/["\\]/g, "\\$&")}"`;
}

function fieldHead(boundary: string, name: string): string {
  return `--${boundary}\r\nContent-Disposition: form-data; name=${quoted(name)}\r\n\r\n`;
}

function fileHead(boundary: string, file: MultipartFile): string {
  // Only the base name, as the form-data library sent it: the relative path would change which
  // attachment references the server matches.
  const name = path.posix.basename(file.name);
  const type = TYPES[path.extname(name).toLowerCase()] ?? "application/octet-stream";
  return `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename=${quoted(name)}\r\nContent-Type: ${type}\r\n\r\n`;
}

function changed(file: FileOnDisk, bytes: number): Error {
  return new Error(
    `${file.path} changed while it was being uploaded (${file.size} bytes planned, ${bytes} read)`,
  );
}

/** A small file's content, read now; a large one's is left for streaming (undefined). */
async function readAhead(file: MultipartFile): Promise<Buffer | undefined> {
  if ("content" in file) return file.content;
  if (file.size > READ_AHEAD_MAX_BYTES) return undefined;
  const content = await readWhole(file.path);
  if (content.length !== file.size) throw changed(file, content.length);
  return content;
}

async function* streamed(file: FileOnDisk): AsyncGenerator<Buffer> {
  let bytes = 0;
  for await (const chunk of createReadStream(file.path) as AsyncIterable<Buffer>) {
    bytes += chunk.length;
    yield chunk;
  }
  if (bytes !== file.size) throw changed(file, bytes);
}

async function* chunks(
  boundary: string,
  fields: Record<string, string>,
  files: readonly MultipartFile[],
): AsyncGenerator<Buffer> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  const add = (data: Buffer | string) => {
    const buffer = typeof data === "string" ? Buffer.from(data) : data;
    pending.push(buffer);
    pendingBytes += buffer.length;
  };
  const take = () => {
    const chunk = Buffer.concat(pending, pendingBytes);
    pending = [];
    pendingBytes = 0;
    return chunk;
  };
  for (const [name, value] of Object.entries(fields))
    add(`${fieldHead(boundary, name)}${value}\r\n`);
  const ahead: Promise<Buffer | undefined>[] = [];
  let next = 0;
  for (const file of files) {
    while (next < files.length && ahead.length < READ_AHEAD) {
      const read = readAhead(files[next++]!);
      // Awaited in turn below; if the body is abandoned first, a failed read must not crash.
      read.catch(() => undefined);
      ahead.push(read);
    }
    const content = await ahead.shift()!;
    add(fileHead(boundary, file));
    if (content) add(content);
    else {
      if (pendingBytes > 0) yield take();
      yield* streamed(file as FileOnDisk);
    }
    add("\r\n");
    if (pendingBytes >= CHUNK_BYTES) yield take();
  }
  add(`--${boundary}--\r\n`);
  yield take();
}

/** Text fields first, then every file as a part named "file", in the order given. */
export function multipartBody(
  fields: Record<string, string>,
  files: readonly MultipartFile[],
): MultipartBody {
  const boundary = `----assay-${randomBytes(12).toString("hex")}`;
  let length = Buffer.byteLength(`--${boundary}--\r\n`);
  for (const [name, value] of Object.entries(fields)) {
    length += Buffer.byteLength(`${fieldHead(boundary, name)}${value}\r\n`);
  }
  for (const file of files)
    length += Buffer.byteLength(fileHead(boundary, file)) + sizeOf(file) + 2;
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    length,
    open: () => Readable.from(chunks(boundary, fields, files), { objectMode: false }),
  };
}
