import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp } from "../../test/build-test-app.js";
import { createTestDatabase, type TestDatabase } from "../../test/test-database.js";
import { temporaryFolder } from "../../test/temporary-folder.js";
import { TEST_INGEST_TOKEN } from "../../test/upload.js";
import { acceptedEncoding, compressBody, COMPRESS_THRESHOLD_BYTES } from "./compression.js";
import { precompressWebApp } from "./precompress-web.js";

/*
 * Answers over the threshold travel br or gzip when the client asks, and decode to the same
 * bytes; the kept run detail keeps its ETag/304; built assets go as the files written at build.
 */

let database: TestDatabase;
let app: FastifyInstance;
let assetJs: string;
const auth = { authorization: `Bearer ${TEST_INGEST_TOKEN}` };

const dist = temporaryFolder("assay-dist-");

beforeAll(async () => {
  writeFileSync(
    path.join(dist, "index.html"),
    `<!doctype html><meta name="assay-mode" content="full">`,
  );
  mkdirSync(path.join(dist, "assets"));
  assetJs = `export const rows = [${Array.from({ length: 400 }, (_, i) => `"row ${i}"`).join(",")}];`;
  writeFileSync(path.join(dist, "assets", "index-abc123.js"), assetJs);
  expect(await precompressWebApp(dist)).toEqual([path.join("assets", "index-abc123.js")]);
  // The .br file is marked, so an answer from it is told apart from one compressed per request.
  writeFileSync(path.join(dist, "assets", "index-abc123.js.br"), "precompressed br");
  database = await createTestDatabase();
  ({ app } = await buildTestApp(database.db, {
    webDistDir: dist,
    env: { ASSAY_INGEST_TOKEN: TEST_INGEST_TOKEN },
  }));
  const opened = await app.inject({
    method: "POST",
    url: "/v1/ingest/runs",
    headers: auth,
    payload: { family: "frontend", run_key: "big-1" },
  });
  expect(opened.statusCode).toBe(201);
  const results = Array.from({ length: 300 }, (_, i) => ({
    test_run_test_id: `t${i}`,
    name: `checkout test ${i}`,
    status: i % 7 === 0 ? "failed" : "passed",
    error_message: i % 7 === 0 ? `expected 200, got 500 on call ${i}` : undefined,
  }));
  const appended = await app.inject({
    method: "POST",
    url: "/v1/ingest/runs/big-1/results",
    headers: auth,
    payload: results,
  });
  expect(appended.statusCode).toBe(200);
});
afterAll(async () => {
  await app.close();
  await database.drop();
});

const get = (url: string, headers: Record<string, string> = {}) =>
  app.inject({ method: "GET", url, headers });

function decode(encoding: string | undefined, raw: Buffer): string {
  if (encoding === "br") return brotliDecompressSync(raw).toString("utf8");
  if (encoding === "gzip") return gunzipSync(raw).toString("utf8");
  return raw.toString("utf8");
}

describe("compressed answers", () => {
  it.each([
    ["/v1/test-runs/big-1", "br", "gzip, deflate, br"],
    ["/v1/test-runs/big-1", "gzip", "gzip"],
    ["/docs/json", "br", "br;q=1, gzip;q=0.5"],
    ["/docs/json", "gzip", "br;q=0, gzip"],
  ])(
    "%s comes back %s for Accept-Encoding %s, decoding to the plain answer",
    async (url, want, accept) => {
      const plain = await get(url);
      expect(plain.statusCode).toBe(200);
      expect(plain.headers["content-encoding"]).toBeUndefined();
      expect(plain.body.length).toBeGreaterThan(COMPRESS_THRESHOLD_BYTES);
      // Twice: the kept run detail answers its second request from its kept compressed bytes.
      for (let i = 0; i < 2; i++) {
        const packed = await get(url, { "accept-encoding": accept });
        expect(packed.statusCode).toBe(200);
        expect(packed.headers["content-encoding"]).toBe(want);
        expect(packed.headers.vary).toMatch(/accept-encoding/i);
        expect(packed.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
        expect(JSON.parse(decode(want, packed.rawPayload))).toEqual(JSON.parse(plain.body));
      }
    },
  );

  it("leaves small answers uncompressed", async () => {
    const small = await get("/v1/test-runs?limit=1", { "accept-encoding": "br, gzip" });
    expect(small.statusCode).toBe(200);
    expect(small.body.length).toBeLessThan(COMPRESS_THRESHOLD_BYTES);
    expect(small.headers["content-encoding"]).toBeUndefined();
    expect(JSON.parse(small.body)).toBeTypeOf("object");
  });

  it("compresses a mid-size JSON answer in one call (a sized body, not a stream)", async () => {
    const VIEW = "/v1/test-runs/big-1/view?limit=300";
    const plain = await get(VIEW);
    expect(plain.body.length).toBeGreaterThan(COMPRESS_THRESHOLD_BYTES);
    expect(plain.body.length).toBeLessThan(256 * 1024);
    const packed = await get(VIEW, { "accept-encoding": "br" });
    expect(packed.headers["content-encoding"]).toBe("br");
    // The plugin's streams answer chunked; the one-call path knows the length.
    expect(Number(packed.headers["content-length"])).toBe(packed.rawPayload.length);
    expect(packed.headers["transfer-encoding"]).toBeUndefined();
    expect(packed.headers.vary).toMatch(/accept-encoding/i);
    expect(decode("br", packed.rawPayload)).toBe(plain.body);
    const refused = await get(VIEW, { "accept-encoding": "br", "x-no-compression": "1" });
    expect(refused.headers["content-encoding"]).toBeUndefined();
    expect(refused.body).toBe(plain.body);
  });

  it("answers 304 to the run detail's ETag with and without compression", async () => {
    const first = await get("/v1/test-runs/big-1", { "accept-encoding": "br" });
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect((await get("/v1/test-runs/big-1")).headers.etag).toBe(etag);
    for (const accept of [undefined, "br", "gzip"]) {
      const again = await get("/v1/test-runs/big-1", {
        "if-none-match": etag,
        ...(accept ? { "accept-encoding": accept } : {}),
      });
      expect(again.statusCode).toBe(304);
      expect(again.rawPayload.length).toBe(0);
      expect(again.headers["content-encoding"]).toBeUndefined();
      expect(again.headers.vary).toMatch(/accept-encoding/i);
    }
  });

  it("sends built assets as the files compressed at build", async () => {
    const br = await get("/assets/index-abc123.js", { "accept-encoding": "br" });
    expect(br.statusCode).toBe(200);
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.body).toBe("precompressed br");
    const gz = await get("/assets/index-abc123.js", { "accept-encoding": "gzip" });
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gz.rawPayload).toString("utf8")).toBe(assetJs);
    const plain = await get("/assets/index-abc123.js");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body).toBe(assetJs);
    // The compressed copies are not served under their own names.
    expect((await get("/assets/index-abc123.js.br")).statusCode).toBe(404);
  });
});

describe("acceptedEncoding", () => {
  it.each([
    [undefined, undefined],
    ["identity", undefined],
    ["gzip, deflate", "gzip"],
    ["gzip, br", "br"],
    ["br;q=0, gzip;q=0.8", "gzip"],
    ["*", "br"],
    ["*;q=0", undefined],
  ])("%s gives %s", (header, want) => {
    expect(acceptedEncoding(header)).toBe(want);
  });
});

describe("compressBody", () => {
  // A run detail's size for ~10,000 results: varied enough that brotli has work to do.
  const body = JSON.stringify(
    Array.from({ length: 60_000 }, (_, i) => ({ id: i, name: `test ${i * 7919}`, ok: i % 3 > 0 })),
  );

  it("gives the body back when decoded, in both encodings", async () => {
    expect(brotliDecompressSync(await compressBody(body, "br")).toString()).toBe(body);
    expect(gunzipSync(await compressBody(body, "gzip")).toString()).toBe(body);
  });

  it("leaves the event loop free while it compresses (a pool thread does it)", async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    const started = performance.now();
    try {
      // Each call keeps a pool thread busy for tens of milliseconds; in this thread, timers run.
      await Promise.all(Array.from({ length: 4 }, () => compressBody(body, "br")));
    } finally {
      clearInterval(timer);
    }
    const elapsed = performance.now() - started;
    // Done in this thread, no timer could fire until every call had returned.
    expect(ticks, `${elapsed.toFixed(0)} ms`).toBeGreaterThanOrEqual(3);
  });
});
