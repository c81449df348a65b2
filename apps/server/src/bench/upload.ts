import { createReadStream } from "node:fs";
import http from "node:http";
import { performance } from "node:perf_hooks";
import { Readable } from "node:stream";
import FormData from "form-data";

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

/** A file opened only when form-data reaches it, so thousands of parts hold no descriptors. */
function lazyFile(file: string): Readable {
  async function* chunks() {
    yield* createReadStream(file);
  }
  return Readable.from(chunks(), { objectMode: false });
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
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const file of files) {
    form.append("file", lazyFile(file.path), { filename: file.name, knownLength: file.size });
  }
  const headers = {
    ...form.getHeaders(),
    "content-length": String(form.getLengthSync()),
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
    form.on("error", (error) => {
      if (!answered) reject(error);
    });
    form.pipe(request);
  });
}
