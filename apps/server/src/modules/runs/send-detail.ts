import { Readable } from "node:stream";
import type { FastifyReply, FastifyRequest } from "fastify";
import { acceptedEncoding, COMPRESS_THRESHOLD_BYTES } from "../../http/compression.js";
import { ifNoneMatchHits } from "../../http/etag.js";
import type { RunDetailCache } from "./run-detail-cache.js";
import type { RunDetailAnswer } from "./runs.service.js";

/**
 * A run detail as built or kept: 304 when the client has this version, else its JSON, compressed
 * when asked. A kept one is sent as the kept bytes (compressing a 10 MB detail again on every
 * open costs more than building the answer from the cache, docs/performance.md; the plugin
 * leaves encoded answers be). One too large to keep goes piece by piece, compressed on the way
 * by the compression plugin: no piece waits for another, and the event loop turns between them.
 */
export async function sendRunDetail(
  request: FastifyRequest,
  reply: FastifyReply,
  answer: RunDetailAnswer,
  kept: { cache: RunDetailCache; key: string },
): Promise<FastifyReply> {
  void reply
    .header("etag", answer.etag)
    .header("cache-control", "no-cache")
    .header("vary", "accept-encoding");
  if (ifNoneMatchHits(request.headers["if-none-match"], answer.etag))
    return reply.code(304).send(null);
  // Already JSON: Fastify sends a string payload with a JSON type as it is.
  void reply.type("application/json; charset=utf-8");
  if (typeof answer.body !== "string") return reply.send(Readable.from(answer.body));
  const encoding = acceptedEncoding(request.headers["accept-encoding"]);
  if (!encoding || answer.body.length < COMPRESS_THRESHOLD_BYTES) return reply.send(answer.body);
  const bytes = await kept.cache.encoded(kept.key, answer.etag, answer.body, encoding);
  return reply.header("content-encoding", encoding).send(bytes);
}
