import { randomBytes } from "node:crypto";
import { createReadStream, readFile } from "node:fs";
import http from "node:http";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { Readable } from "node:stream";
import { promisify } from "node:util";

export interface LocalFile {
  path: string;
  /** Name sent to the server (relative, as `assay upload` sends a folder's files). */
  name: string;
  size: number;
}

export interface UploadAnswer {
  status: number;
  body: unknown;
  /** From the first byte sent to the last byte of the answer. */
  ms: number;
  /** Monotonic clock (ns) at start and end, to cut the server's CPU profile to this window. */
  startNs: bigint;
  endNs: bigint;
}

/*
 * The multipart body, built as `assay upload` builds it (apps/cli/src/multipart.ts; the bench
 * cannot import the CLI): each file opened only when the body comes within READ_AHEAD files of
 * it and read while the parts before it are sent, so reading overlaps sending and neither
 * descriptors nor memory grow with the number of files.
 */
const READ_AHEAD = 32;
/** Files up to this size are read ahead whole; larger ones are streamed when their turn comes. */
const READ_AHEAD_MAX_BYTES = 1024 * 1024;
/** Small parts are gathered into chunks of about this size, so each is not a write of its own. */
const CHUNK_BYTES = 64 * 1024;
// The callback readFile: about twice as fast as fs/promises' on thousands of small files here.
const readWhole = promisify(readFile);

const fieldPart = (boundary: string, name: string, value: string) =>
  `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;

function fileHead(boundary: string, file: LocalFile): string {
  // Only the base name, as `assay upload` sends it.
  const name = path.posix.basename(file.name).replace(/[\r\n"]/g, "");
  return `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`;
}

async function readAhead(file: LocalFile): Promise<Buffer | undefined> {
  if (file.size > READ_AHEAD_MAX_BYTES) return undefined;
  const content = await readWhole(file.path);
  if (content.length !== file.size) throw new Error(`${file.path} changed during the upload`);
  return content;
}

async function* parts(
  boundary: string,
  fields: Record<string, string>,
  files: readonly LocalFile[],
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
  for (const [name, value] of Object.entries(fields)) add(fieldPart(boundary, name, value));
  const ahead: Promise<Buffer | undefined>[] = [];
  let next = 0;
  for (const file of files) {
    while (next < files.length && ahead.length < READ_AHEAD) {
      const read = readAhead(files[next++]!);
      read.catch(() => undefined); // awaited in turn below, unless the upload ends first
      ahead.push(read);
    }
    const content = await ahead.shift()!;
    add(fileHead(boundary, file));
    if (content) add(content);
    else {
      if (pendingBytes > 0) yield take();
      yield* createReadStream(file.path) as AsyncIterable<Buffer>;
    }
    add("\r\n");
    if (pendingBytes >= CHUNK_BYTES) yield take();
  }
  add(`--${boundary}--\r\n`);
  yield take();
}

function multipartBody(fields: Record<string, string>, files: readonly LocalFile[]) {
  const boundary = `----assay-bench-${randomBytes(12).toString("hex")}`;
  let length = Buffer.byteLength(`--${boundary}--\r\n`);
  for (const [name, value] of Object.entries(fields)) {
    length += Buffer.byteLength(fieldPart(boundary, name, value));
  }
  for (const file of files) length += Buffer.byteLength(fileHead(boundary, file)) + file.size + 2;
  const stream = Readable.from(parts(boundary, fields, files), { objectMode: false });
  return { contentType: `multipart/form-data; boundary=${boundary}`, length, stream };
}

/**
 * POST /v1/ingest/reports as `assay upload` sends it: text fields, then every file streamed from
 * disk in one multipart body with a known length. Resolves with the answer, even an early one
 * (a 413 sent before the body was read).
 */
export async function uploadReports(
  baseUrl: string,
  token: string,
  files: readonly LocalFile[],
  fields: Record<string, string>,
  timeoutMs: number,
): Promise<UploadAnswer> {
  const multipart = multipartBody(fields, files);
  const headers = {
    "content-type": multipart.contentType,
    "content-length": String(multipart.length),
    authorization: `Bearer ${token}`,
  };
  const startNs = process.hrtime.bigint();
  const started = performance.now();
  return new Promise<UploadAnswer>((resolve, reject) => {
    let answered = false;
    const request = http.request(`${baseUrl}/v1/ingest/reports`, {
      method: "POST",
      headers,
      signal: AbortSignal.timeout(timeoutMs),
    });
    request.on("response", (response) => {
      answered = true;
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("error", reject);
      response.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          // not JSON: kept as text for the message
        }
        resolve({
          status: response.statusCode ?? 0,
          body,
          ms: performance.now() - started,
          startNs,
          endNs: process.hrtime.bigint(),
        });
      });
    });
    // Writing after an early answer fails (EPIPE); only an error without an answer counts.
    request.on("error", (error) => {
      if (!answered) reject(error);
    });
    multipart.stream.on("error", (error) => {
      if (!answered) reject(error);
    });
    // An early answer ends the upload: stop reading files ahead.
    request.on("close", () => multipart.stream.destroy());
    multipart.stream.pipe(request);
  });
}
