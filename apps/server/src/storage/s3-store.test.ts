import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { PassThrough, Readable } from "node:stream";
import { text } from "node:stream/consumers";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { S3ObjectStore } from "./s3-store.js";
import { S3rver, type S3rverServer } from "../../test/s3rver.js";

const BUCKET = "assay-test";
let folder: string;
let spoolDir: string;
let server: S3rverServer;
let endpoint: string;
let store: S3ObjectStore;

beforeAll(async () => {
  folder = await mkdtemp(path.join(tmpdir(), "assay-s3rver-"));
  spoolDir = await mkdtemp(path.join(tmpdir(), "assay-spool-"));
  server = new S3rver({
    address: "127.0.0.1",
    port: 0,
    silent: true,
    directory: folder,
    configureBuckets: [{ name: BUCKET }],
  });
  const { port } = await server.run();
  endpoint = `http://127.0.0.1:${port}`;
  // s3rver's fixed credentials, read through the SDK's standard chain as in production.
  vi.stubEnv("AWS_ACCESS_KEY_ID", "S3RVER");
  vi.stubEnv("AWS_SECRET_ACCESS_KEY", "S3RVER");
  store = new S3ObjectStore(
    {
      bucket: BUCKET,
      region: "us-east-1",
      endpoint,
      forcePathStyle: true,
      prefix: "assay/",
      spoolDir,
    },
    pino({ level: "silent" }),
  );
});
afterAll(async () => {
  store.destroy();
  vi.unstubAllEnvs();
  await server.close();
  await rm(folder, { recursive: true, force: true });
  await rm(spoolDir, { recursive: true, force: true });
});

describe("S3ObjectStore against s3rver", () => {
  it("puts, gets and deletes a buffer", async () => {
    const key = "attachments/2026/11/one.png";
    const put = await store.put(key, Buffer.from("png bytes"), { contentType: "image/png" });
    expect(put).toEqual({ key, size: 9, etag: expect.stringMatching(/^"[0-9a-f]{32}"$/) });

    const got = await store.get(key);
    expect(got).toMatchObject({ size: 9, contentType: "image/png", etag: put.etag });
    expect(got?.lastModified).toBeInstanceOf(Date);
    expect(await text(got!.body)).toBe("png bytes");

    await store.delete(key);
    expect(await store.get(key)).toBeUndefined();
  });

  it("streams a body of unknown length through a spool file it removes afterwards", async () => {
    const key = "attachments/2026/11/two.txt";
    const chunks = Array.from({ length: 50 }, (_, i) => Buffer.alloc(16 * 1024, 97 + (i % 26)));
    const put = await store.put(key, Readable.from(chunks), { contentType: "text/plain" });
    expect(put.size).toBe(50 * 16 * 1024);
    const got = await store.get(key);
    expect(got?.size).toBe(put.size);
    expect(await text(got!.body)).toBe(Buffer.concat(chunks).toString());
    expect(await readdir(spoolDir)).toEqual([]);
  });

  it("removes the spool file when the body fails, storing nothing", async () => {
    const key = "attachments/2026/11/broken.png";
    const body = new PassThrough();
    const putting = store.put(key, body, { contentType: "image/png" });
    body.write("partial");
    setTimeout(() => body.destroy(new Error("client went away")), 20);
    await expect(putting).rejects.toThrow("client went away");
    expect(await readdir(spoolDir)).toEqual([]);
    expect(await store.get(key)).toBeUndefined();
  });

  it("keeps objects under the configured prefix", async () => {
    await store.put("attachments/2026/11/three.json", Buffer.from("{}"), {
      contentType: "application/json",
    });
    const unprefixed = new S3ObjectStore(
      { bucket: BUCKET, region: "us-east-1", endpoint, forcePathStyle: true },
      pino({ level: "silent" }),
    );
    try {
      expect(await unprefixed.get("assay/attachments/2026/11/three.json")).toMatchObject({
        size: 2,
      });
      expect(await unprefixed.get("attachments/2026/11/three.json")).toBeUndefined();
      // list() gives keys without the prefix, and only those under it.
      await unprefixed.put("elsewhere/x.txt", Buffer.from("x"), { contentType: "text/plain" });
      const keys: string[] = [];
      for await (const key of store.list()) keys.push(key);
      expect(keys).toContain("attachments/2026/11/three.json");
      expect(keys.some((k) => k.startsWith("assay/") || k.startsWith("elsewhere/"))).toBe(false);
    } finally {
      unprefixed.destroy();
    }
  });

  it("answers undefined for a missing key and deletes one quietly", async () => {
    expect(await store.get("attachments/2026/11/missing.png")).toBeUndefined();
    await expect(store.delete("attachments/2026/11/missing.png")).resolves.toBeUndefined();
  });

  it("refuses a bad key before any request", async () => {
    await expect(store.get("../etc/passwd")).rejects.toMatchObject({
      statusCode: 400,
      code: "invalid_object_key",
    });
  });

  it("reports a refusal such as a missing bucket by name and status only", async () => {
    const wrong = new S3ObjectStore(
      { bucket: "no-such-bucket", region: "us-east-1", endpoint, forcePathStyle: true },
      pino({ level: "silent" }),
    );
    try {
      const failure = wrong.put("attachments/x.png", Buffer.from("x"), {
        contentType: "image/png",
      });
      await expect(failure).rejects.toThrow(
        /^S3 refused put of attachments\/x.png: NoSuchBucket \(404\): /,
      );
      await expect(failure).rejects.not.toHaveProperty("$response");
    } finally {
      wrong.destroy();
    }
  });

  it("turns an unreachable store into a 503 without logging credentials", async () => {
    const lines: string[] = [];
    const log = pino({ level: "info" }, { write: (line: string) => lines.push(line) });
    const down = new S3ObjectStore(
      // Port 9 (discard) on loopback: nothing listens, the connection is refused at once.
      { bucket: BUCKET, region: "us-east-1", endpoint: "http://127.0.0.1:9", forcePathStyle: true },
      log,
    );
    try {
      await expect(down.get("attachments/x.png")).rejects.toMatchObject({
        statusCode: 503,
        code: "object_store_unavailable",
      });
    } finally {
      down.destroy();
    }
    expect(lines.join("")).toContain("object store failed");
    expect(lines.join("")).not.toContain("S3RVER");
  });
});
