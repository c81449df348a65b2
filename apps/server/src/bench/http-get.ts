import http from "node:http";
import { brotliDecompressSync, gunzipSync } from "node:zlib";

/**
 * What a browser offers: the server then sends its JSON compressed, as it does to the web app
 * (apps/server/src/http/compression.ts).
 */
export const BROWSER_ACCEPT_ENCODING = "br, gzip";

export interface RawAnswer {
  status: number;
  /** The body as it came over the wire (still compressed when `encoding` says so). */
  wire: Buffer;
  encoding: string | undefined;
}

/**
 * GET `url` and resolve at the last byte on the wire, without decoding it. fetch() decodes a
 * compressed answer through zlib streams, which cost the client 0.4 ms median (wall) and 0.6 ms
 * CPU per 25 KB answer on this machine: not the server's time, and a browser decodes natively
 * (docs/performance.md, "Reads at 10M results").
 */
export function getRaw(
  url: string,
  timeoutMs: number,
  headers: Record<string, string> = {},
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, {
      headers: { "accept-encoding": BROWSER_ACCEPT_ENCODING, ...headers },
      signal: AbortSignal.timeout(timeoutMs),
    });
    request.on("error", reject);
    request.on("response", (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("error", reject);
      response.on("end", () => {
        const encoding = response.headers["content-encoding"];
        resolve({ status: response.statusCode ?? 0, wire: Buffer.concat(chunks), encoding });
      });
    });
  });
}

/** The answer's text, decoded once after the timing. */
export function decodeAnswer(answer: RawAnswer): string {
  const { wire, encoding } = answer;
  if (encoding === "br") return brotliDecompressSync(wire).toString("utf8");
  if (encoding === "gzip") return gunzipSync(wire).toString("utf8");
  if (encoding === undefined || encoding === "identity") return wire.toString("utf8");
  throw new Error(`unexpected content-encoding ${encoding}`);
}
