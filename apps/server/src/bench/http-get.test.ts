import http from "node:http";
import type { AddressInfo } from "node:net";
import { brotliCompressSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BROWSER_ACCEPT_ENCODING, decodeAnswer, getRaw } from "./http-get.js";

const body = JSON.stringify({ items: Array.from({ length: 200 }, (_, i) => ({ id: i })) });
let seen: string | undefined;
let server: http.Server;
let base = "";

beforeAll(async () => {
  server = http.createServer((request, reply) => {
    seen = request.headers["accept-encoding"];
    const encoding = request.url?.slice(1);
    if (encoding === "br") reply.setHeader("content-encoding", "br");
    if (encoding === "gzip") reply.setHeader("content-encoding", "gzip");
    reply.end(
      encoding === "br" ? brotliCompressSync(body) : encoding === "gzip" ? gzipSync(body) : body,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

describe("the bench's GET", () => {
  it("asks for br as a browser does and keeps the wire bytes undecoded until asked", async () => {
    const answer = await getRaw(`${base}/br`, 5_000);
    expect(seen).toBe(BROWSER_ACCEPT_ENCODING);
    expect(answer.encoding).toBe("br");
    expect(answer.wire.length).toBeLessThan(body.length);
    expect(decodeAnswer(answer)).toBe(body);
  });

  it("decodes gzip and plain answers too", async () => {
    expect(decodeAnswer(await getRaw(`${base}/gzip`, 5_000))).toBe(body);
    const plain = await getRaw(`${base}/plain`, 5_000);
    expect(plain.encoding).toBeUndefined();
    expect(decodeAnswer(plain)).toBe(body);
  });
});
