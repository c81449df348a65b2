import { promisify } from "node:util";
import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync } from "node:zlib";
import compress from "@fastify/compress";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";

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
 * JSON answers up to this size are compressed in one synchronous call (brotli 5: about 0.1 ms for
 * the 25 KB of a test's history, 2 ms at this size), which blocks the event loop less than the
 * plugin's streams cost: they added about 1.2 ms to every answer (docs/performance.md, "Reads").
 */
const SYNC_COMPRESS_MAX_BYTES = 256 * 1024;

function addVaryAcceptEncoding(reply: FastifyReply) {
  const vary = reply.getHeader("vary");
  const values = (Array.isArray(vary) ? vary : vary === undefined ? [] : [String(vary)]).filter(
    (value) => value !== "",
  );
  if (!values.some((value) => /accept-encoding/i.test(value))) {
    reply.header("vary", [...values, "accept-encoding"].join(", "));
  }
}

/**
 * The API's JSON answers and the pages (index.html, with a first screen rendered into it: not a
 * route, so the plugin's per-route hook misses it) between the threshold and
 * SYNC_COMPRESS_MAX_BYTES, compressed at once.
 */
function compressSmallAnswer(request: FastifyRequest, reply: FastifyReply, payload: unknown) {
  if (typeof payload !== "string" && !Buffer.isBuffer(payload)) return payload;
  const size = Buffer.byteLength(payload);
  if (size < COMPRESS_THRESHOLD_BYTES || size > SYNC_COMPRESS_MAX_BYTES) return payload;
  if (reply.hasHeader("content-encoding")) return payload;
  const type = String(reply.getHeader("content-type") ?? "");
  if (!/^(application\/json|text\/html)\b/i.test(type)) return payload;
  if (request.headers["x-no-compression"] !== undefined) return payload;
  const encoding = acceptedEncoding(request.headers["accept-encoding"]);
  if (!encoding) return payload;
  addVaryAcceptEncoding(reply);
  reply.header("content-encoding", encoding);
  reply.removeHeader("content-length");
  return compressNow(payload, encoding);
}

/**
 * Every answer of a compressible type over the threshold is sent br or gzip when the request
 * accepts it (Vary: Accept-Encoding). Registered before the routes: the plugin adds its hook to
 * each route as it is added, after this app-wide one, and leaves an answer already encoded alone.
 */
export async function registerCompression(app: FastifyInstance) {
  app.addHook("onSend", async (request, reply, payload) =>
    compressSmallAnswer(request, reply, payload),
  );
  await app.register(compress, {
    global: true,
    encodings: ["br", "gzip"],
    threshold: COMPRESS_THRESHOLD_BYTES,
    brotliOptions,
    zlibOptions,
  });
}

/** The plugin's compression, in this thread: for answers up to SYNC_COMPRESS_MAX_BYTES. */
function compressNow(body: string | Buffer, encoding: ContentEncoding): Buffer {
  return encoding === "br" ? brotliCompressSync(body, brotliOptions) : gzipSync(body, zlibOptions);
}

const brotliInPool = promisify(brotliCompress);
const gzipInPool = promisify(gzip);

/**
 * The same compression as the plugin's, done once for an answer that is kept (RunDetailCache,
 * the matrix, kept answers), in libuv's thread pool: brotli took the server's thread 0.55 s for
 * a 100,000-result run's detail (68 MB of JSON), during which no other request was answered.
 */
export function compressBody(body: string | Buffer, encoding: ContentEncoding): Promise<Buffer> {
  return encoding === "br" ? brotliInPool(body, brotliOptions) : gzipInPool(body, zlibOptions);
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
