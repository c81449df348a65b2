import { mkdtemp, rm } from "node:fs/promises";
import net, { type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LineCounter } from "./ndjson.js";
import { S3Connector, type S3SourceOptions } from "./s3.js";
import { S3rver, type S3rverServer } from "../../../../test/s3rver.js";

/** The S3 connector against s3rver (a real S3 HTTP API on 127.0.0.1) and broken TCP servers. */

const BUCKET = "fhir-exports";
const S3RVER_KEYS = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };
let folder: string;
let server: S3rverServer;
let endpoint: string;

const lines = (n: number, type = "Patient") =>
  Array.from({ length: n }, (_, i) => JSON.stringify({ resourceType: type, id: `${i}` })).join(
    "\n",
  );

const connector = (options: Partial<S3SourceOptions> = {}) =>
  new S3Connector({
    bucket: BUCKET,
    region: "us-east-1",
    endpoint,
    forcePathStyle: true,
    credentials: S3RVER_KEYS,
    timeoutMs: 5_000,
    maxConnections: 4,
    ...options,
  });

beforeAll(async () => {
  folder = await mkdtemp(path.join(tmpdir(), "assay-dh-s3rver-"));
  server = new S3rver({
    address: "127.0.0.1",
    port: 0,
    silent: true,
    directory: folder,
    configureBuckets: [{ name: BUCKET }],
  });
  endpoint = `http://127.0.0.1:${(await server.run()).port}`;
  const client = new S3Client({
    region: "us-east-1",
    endpoint,
    forcePathStyle: true,
    credentials: S3RVER_KEYS,
  });
  const put = (key: string, body: string | Buffer) =>
    client.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: body }));
  // A trailing newline, an empty line in the middle, and none at the end of the gzip file.
  await put("fhir/Patient/part-1.ndjson", `${lines(3)}\n\n${lines(2)}\n`);
  await put("fhir/Patient/part-2.ndjson.gz", gzipSync(lines(1_000)));
  await put("fhir/Observation/obs.ndjson", `${lines(4, "Observation")}\n`);
  client.destroy();
});
afterAll(async () => {
  await server?.close();
  await rm(folder, { recursive: true, force: true });
});

describe("S3 connector", () => {
  it("lists a prefix and counts NDJSON lines of plain and gzip objects", async () => {
    const s3 = connector();
    try {
      const documents = await s3.listDocuments("fhir/Patient/");
      expect(documents.map((d) => d.key)).toEqual([
        "fhir/Patient/part-1.ndjson",
        "fhir/Patient/part-2.ndjson.gz",
      ]);
      expect(documents[0]?.lastModified).toBeInstanceOf(Date);
      expect(await s3.countDocument("fhir/Patient/part-1.ndjson")).toBe(5);
      expect(await s3.countDocument("fhir/Patient/part-2.ndjson.gz")).toBe(1_000);
      expect(await s3.count("fhir/Patient/")).toBe(1_005);
      expect(await s3.count("fhir/Nothing/")).toBe(0);
    } finally {
      await s3.close();
    }
  });

  it("reads a document's first records, saying when there are more", async () => {
    const s3 = connector();
    try {
      const read = await s3.readRecords(
        "fhir/Patient/part-2.ndjson.gz",
        { key: "id", keys: [], columns: [] },
        10,
      );
      expect(read.records).toHaveLength(10);
      expect(read.records[0]).toEqual({ resourceType: "Patient", id: "0" });
      expect(read.truncated).toBe(true);
    } finally {
      await s3.close();
    }
  });

  it("fails a missing bucket and a missing object with S3's reason", async () => {
    const missing = connector({ bucket: "no-such-bucket" });
    const s3 = connector();
    try {
      await expect(missing.count("fhir/")).rejects.toThrow(/bucket does not exist/i);
      await expect(s3.countDocument("fhir/none.ndjson")).rejects.toThrow(/key does not exist/i);
    } finally {
      await missing.close();
      await s3.close();
    }
  });

  /** A TCP server on 127.0.0.1:0 that does `onConnection` with every socket. */
  async function brokenServer(onConnection: (socket: net.Socket) => void) {
    const sockets = new Set<net.Socket>();
    const tcp = net.createServer((socket) => {
      sockets.add(socket);
      onConnection(socket);
    });
    await new Promise<void>((resolve) => tcp.listen(0, "127.0.0.1", resolve));
    return {
      endpoint: `http://127.0.0.1:${(tcp.address() as AddressInfo).port}`,
      close: async () => {
        for (const socket of sockets) socket.destroy();
        await new Promise((resolve) => tcp.close(resolve));
      },
    };
  }

  it("fails wrong credentials with S3's answer, without showing the secret", async () => {
    // s3rver accepts any key, so this is S3's own answer to an unknown key, on the wire.
    const body =
      '<?xml version="1.0" encoding="UTF-8"?><Error><Code>InvalidAccessKeyId</Code><Message>The AWS Access Key Id you provided does not exist in our records.</Message></Error>';
    const refusing = await brokenServer((socket) => {
      socket.once("data", () =>
        socket.end(
          `HTTP/1.1 403 Forbidden\r\nContent-Type: application/xml\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
        ),
      );
    });
    const s3 = connector({
      endpoint: refusing.endpoint,
      credentials: { accessKeyId: "AKIAWRONG", secretAccessKey: "wrong-secret" },
    });
    try {
      const error = await s3.count("fhir/").then(
        () => undefined,
        (e: unknown) => e as Error,
      );
      expect(error?.message).toMatch(/Access Key Id you provided does not exist/);
      expect(error?.message).not.toContain("wrong-secret");
    } finally {
      await s3.close();
      await refusing.close();
    }
  });

  it("stops at the source's timeout when S3 does not answer", async () => {
    const silent = await brokenServer(() => undefined);
    const s3 = connector({ endpoint: silent.endpoint, timeoutMs: 300 });
    try {
      const started = Date.now();
      await expect(s3.countDocument("fhir/x.ndjson")).rejects.toThrow(/timeout|timed out/i);
      expect(Date.now() - started).toBeLessThan(3_000);
    } finally {
      await s3.close();
      await silent.close();
    }
  });

  it("fails a count whose connection drops in the middle of the object", async () => {
    const dropping = await brokenServer((socket) => {
      socket.once("data", () => {
        socket.write(
          "HTTP/1.1 200 OK\r\nContent-Type: application/x-ndjson\r\nContent-Length: 100000\r\n\r\n",
        );
        socket.write(`${lines(10)}\n`);
        setTimeout(() => socket.destroy(), 50);
      });
    });
    const s3 = connector({ endpoint: dropping.endpoint });
    try {
      await expect(s3.countDocument("fhir/x.ndjson")).rejects.toThrow(
        /aborted|closed|reset|premature/i,
      );
    } finally {
      await s3.close();
      await dropping.close();
    }
  });
});

describe("LineCounter", () => {
  it("counts non-empty lines across chunk borders, with or without a last newline", () => {
    const count = (chunks: string[]) => {
      const counter = new LineCounter();
      for (const chunk of chunks) counter.add(Buffer.from(chunk));
      return counter.finish();
    };
    expect(count([])).toBe(0);
    expect(count(["a\nb"])).toBe(2);
    expect(count(["a\n", "\n", "b\n"])).toBe(2);
    expect(count(["a", "\n\nb", "\n"])).toBe(2);
    expect(count(["\n\n\n"])).toBe(0);
    expect(count(["{}\r\n{}\r\n"])).toBe(2);
  });
});
