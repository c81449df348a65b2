import { brotliDecompressSync, gunzipSync } from "node:zlib";
import Fastify, { type FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerCompression } from "../../http/compression.js";
import { RunDetailCache } from "./run-detail-cache.js";
import type { RunDetailAnswer } from "./runs.service.js";
import { sendRunDetail } from "./send-detail.js";

/*
 * A run detail too large to keep is sent piece by piece (sendRunDetail): the client gets the same
 * JSON, in every encoding it may ask for, as for one sent whole.
 */

const results = Array.from({ length: 3000 }, (_, n) => ({ id: n, name: `test ${n} ünï "q"` }));
const text = JSON.stringify({ run: { key: "r" }, warnings: [], results });
// Pieces as jsonArrayOf and detailJson make them: the head, slices of results, the end.
const pieces = [
  text.slice(0, 40),
  text.slice(40, 50_000),
  text.slice(50_000, 120_000),
  text.slice(120_000, -1),
  "}",
];
const ETAG = '"v1"';

let server: FastifyInstance;
beforeAll(async () => {
  server = Fastify();
  await registerCompression(server);
  const cache = new RunDetailCache();
  server.get<{ Querystring: { whole?: string } }>("/detail", async (request, reply) => {
    const answer: RunDetailAnswer = { etag: ETAG, body: request.query.whole ? text : pieces };
    return sendRunDetail(request, reply, answer, { cache, key: "r" });
  });
});
afterAll(async () => {
  await server.close();
});

const get = (headers: Record<string, string>, whole = false) =>
  server.inject({ method: "GET", url: `/detail${whole ? "?whole=1" : ""}`, headers });

describe("sendRunDetail", () => {
  it("sends the pieces of a detail too large to keep as its JSON, unencoded", async () => {
    const res = await get({});
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(res.headers.etag).toBe(ETAG);
    expect(res.headers["content-encoding"]).toBeUndefined();
    // Streamed: no length known ahead.
    expect(res.headers["content-length"]).toBeUndefined();
    expect(res.body).toBe(text);
    expect(res.body).toBe((await get({}, true)).body);
  });

  it("compresses the pieces on the way, br or gzip as asked", async () => {
    const br = await get({ "accept-encoding": "gzip, deflate, br" });
    expect(br.headers["content-encoding"]).toBe("br");
    expect(brotliDecompressSync(br.rawPayload).toString("utf8")).toBe(text);
    const gzip = await get({ "accept-encoding": "gzip" });
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gzip.rawPayload).toString("utf8")).toBe(text);
    expect(br.headers.vary).toMatch(/accept-encoding/i);
  });
});
