import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import compress from "@fastify/compress";
import type { FastifyInstance } from "fastify";

/**
 * Answers smaller than this go as they are: below about a packet, compressing saves no time on
 * the wire and costs some on the server.
 */
export const COMPRESS_THRESHOLD_BYTES = 1024;

/**
 * Brotli at quality 5 and gzip at level 6 (figures in docs/performance.md): brotli's default
 * quality 11 took 51 s on an 8 MB run detail; quality 5 takes about a quarter of a second for a
 * 44x smaller answer (quality 4 was no faster and larger). gzip 6 is for clients without br.
 */
const BROTLI_QUALITY = 5;
const GZIP_LEVEL = 6;

export type ContentEncoding = "br" | "gzip";

const brotliOptions = {
  params: {
    [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
    [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
  },
};
const zlibOptions = { level: GZIP_LEVEL };

/**
 * Every answer of a compressible type over the threshold is sent br or gzip when the request
 * accepts it (Vary: Accept-Encoding). Registered before the routes: the plugin adds its hook to
 * each route as it is added.
 */
export async function registerCompression(app: FastifyInstance) {
  await app.register(compress, {
    global: true,
    encodings: ["br", "gzip"],
    threshold: COMPRESS_THRESHOLD_BYTES,
    brotliOptions,
    zlibOptions,
  });
}

/** The same compression as the plugin's, done once for an answer that is kept (RunDetailCache). */
export function compressBody(body: string, encoding: ContentEncoding): Buffer {
  return encoding === "br" ? brotliCompressSync(body, brotliOptions) : gzipSync(body, zlibOptions);
}

/**
 * The encoding to send a kept answer in: br if the request accepts it, else gzip, else none.
 * q=0 refuses an encoding (RFC 9110 12.5.3).
 */
export function acceptedEncoding(acceptEncoding: string | undefined): ContentEncoding | undefined {
  if (!acceptEncoding) return undefined;
  const accepted = new Map<string, number>();
  for (const part of acceptEncoding.split(",")) {
    const [name = "", ...params] = part.trim().toLowerCase().split(";");
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    accepted.set(name.trim(), q === undefined ? 1 : Number(q));
  }
  const weight = (name: ContentEncoding) => accepted.get(name) ?? accepted.get("*") ?? 0;
  if (weight("br") > 0) return "br";
  if (weight("gzip") > 0) return "gzip";
  return undefined;
}
