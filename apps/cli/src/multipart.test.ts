import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { buffer } from "node:stream/consumers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sendStream } from "./client.js";
import { multipartBody, READ_AHEAD, type FileOnDisk } from "@assay/server/multipart-body";

// The body `assay upload` streams: every byte intact, and files opened only as the body reaches
// them (a folder of thousands must not hold a descriptor per file).
const dir = mkdtempSync(path.join(tmpdir(), "assay-multipart-"));
let server: http.Server;
let url: URL;
let received: { headers: http.IncomingHttpHeaders; body: Buffer }[] = [];

/** Files of the given sizes in a new folder, each filled by `content`, and their contents. */
function folder(name: string, sizes: readonly number[], content: (i: number) => Buffer) {
  const sub = path.join(dir, name);
  mkdirSync(sub);
  const files: FileOnDisk[] = [];
  const contents = sizes.map((size, i) => {
    const file = { name: `${name}/f${i}-result.json`, path: path.join(sub, `f${i}.bin`), size };
    const bytes = content(i);
    writeFileSync(file.path, bytes);
    files.push(file);
    return bytes;
  });
  return { files, contents };
}

/** A multipart body split into its parts: headers as text, content as bytes. */
function parse(body: Buffer, contentType: string) {
  const boundary = /boundary=(.+)$/.exec(contentType)![1]!;
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  // The first delimiter has no CRLF before it.
  let rest = Buffer.concat([Buffer.from("\r\n"), body]);
  const parts: { head: string; content: Buffer }[] = [];
  for (;;) {
    const start = rest.indexOf(delimiter);
    expect(start).toBeGreaterThanOrEqual(0);
    rest = rest.subarray(start + delimiter.length);
    if (rest.subarray(0, 4).toString() === "--\r\n") break;
    const headEnd = rest.indexOf("\r\n\r\n");
    const head = rest.subarray(2, headEnd).toString();
    const next = rest.indexOf(delimiter, headEnd + 4);
    parts.push({ head, content: rest.subarray(headEnd + 4, next) });
    rest = rest.subarray(next);
  }
  return parts;
}

function openDescriptors(): number {
  return readdirSync("/proc/self/fd").length;
}

beforeAll(async () => {
  server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks) });
      response.writeHead(201, { "content-type": "application/json" }).end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

describe("multipartBody", () => {
  it("sends fields and files byte for byte, with the announced length", async () => {
    received = [];
    // Binary content with CRLFs and dashes; one file above the read-ahead size is streamed.
    const sizes = [0, 1, 2, 4096, 70_000, 3 * 1024 * 1024, 17, 100_000];
    const { files, contents } = folder("intact", sizes, (i) =>
      Buffer.concat([Buffer.from("\r\n--\r\n"), randomBytes(sizes[i]!)]).subarray(0, sizes[i]),
    );
    const body = multipartBody({ format: "allure", test_run_name: "Nacht ☾" }, files);
    const answer = await sendStream({ url, token: "t" }, "/upload", body.open(), {
      "content-type": body.contentType,
      "content-length": body.length,
    });
    expect(answer.status).toBe(201);
    const [request] = received;
    expect(request!.body.length).toBe(body.length);
    expect(Number(request!.headers["content-length"])).toBe(body.length);
    const parts = parse(request!.body, request!.headers["content-type"]!);
    expect(parts.map((p) => p.head.split("\r\n")[0])).toEqual([
      'Content-Disposition: form-data; name="format"',
      'Content-Disposition: form-data; name="test_run_name"',
      ...files.map(
        (_, i) => `Content-Disposition: form-data; name="file"; filename="f${i}-result.json"`,
      ),
    ]);
    expect(parts[1]!.content.toString()).toBe("Nacht ☾");
    parts.slice(2).forEach((part, i) => {
      expect(part.head).toContain("Content-Type: application/json");
      expect(part.content.equals(contents[i]!)).toBe(true);
    });
  });

  it("opens each file only as the body reaches it: few descriptors for thousands of files", async () => {
    const count = 3_000;
    const sizes = Array.from({ length: count }, () => 600);
    const { files } = folder("many", sizes, (i) => Buffer.alloc(600, i % 251));
    const before = openDescriptors();
    let most = before;
    let bytes = 0;
    // Read slowly enough that eager opening would show: sample the descriptors every chunk.
    for await (const chunk of multipartBody({}, files).open() as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      most = Math.max(most, openDescriptors());
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(bytes).toBeGreaterThan(count * 600);
    expect(most - before).toBeLessThanOrEqual(READ_AHEAD + 4);
  });

  it("fails the body when a file changed after it was planned", async () => {
    const { files } = folder("changed", [10], () => Buffer.from("ten bytes!"));
    const [file] = files;
    writeFileSync(file!.path, "now longer than planned");
    await expect(buffer(multipartBody({}, [file!]).open())).rejects.toThrow(
      /changed while it was being uploaded \(10 bytes planned, 23 read\)/,
    );
  });
});
