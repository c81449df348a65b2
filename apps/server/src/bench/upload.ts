import http from "node:http";
import { performance } from "node:perf_hooks";
import { multipartBody, type FileOnDisk } from "../http/multipart-body.js";

/** A file to upload: name sent to the server (relative, as `assay upload` sends a folder's). */
export type LocalFile = FileOnDisk;

export interface UploadAnswer {
  status: number;
  body: unknown;
  /** From the first byte sent to the last byte of the answer. */
  ms: number;
  /** Monotonic clock (ns) at start and end, to cut the server's CPU profile to this window. */
  startNs: bigint;
  endNs: bigint;
}

/**
 * POST /v1/ingest/reports as `assay upload` sends it (the same multipart encoder): text fields,
 * then every file streamed from disk in one body with a known length. Resolves with the answer,
 * even an early one (a 413 sent before the body was read).
 */
export async function uploadReports(
  baseUrl: string,
  token: string,
  files: readonly LocalFile[],
  fields: Record<string, string>,
  timeoutMs: number,
): Promise<UploadAnswer> {
  const multipart = multipartBody(fields, files);
  const stream = multipart.open();
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
    stream.on("error", (error) => {
      if (!answered) reject(error);
    });
    // An early answer ends the upload: stop reading files ahead.
    request.on("close", () => stream.destroy());
    stream.pipe(request);
  });
}
