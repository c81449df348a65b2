import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { PassThrough, Readable } from "node:stream";
import { text } from "node:stream/consumers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LocalObjectStore } from "./local-store.js";

let parent: string;
let root: string;
let store: LocalObjectStore;

beforeAll(async () => {
  parent = await mkdtemp(path.join(tmpdir(), "assay-local-store-"));
  root = path.join(parent, "objects");
  store = new LocalObjectStore(root);
  await store.init();
});
afterAll(async () => {
  await rm(parent, { recursive: true, force: true });
});

/** Every file under `dir`, relative, hidden ones included. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
    .sort();
}

describe("LocalObjectStore", () => {
  it("puts, gets and deletes an object with its content type and ETag", async () => {
    const key = "attachments/2026/11/one.png";
    const put = await store.put(key, Buffer.from("png bytes"), { contentType: "image/png" });
    // The MD5 of the bytes, as S3 gives for a single-part upload.
    expect(put).toEqual({ key, size: 9, etag: '"847bee05ce221ee20516f48581e44313"' });
    expect(await readFile(path.join(root, key), "utf8")).toBe("png bytes");

    const got = await store.get(key);
    expect(got).toMatchObject({ size: 9, contentType: "image/png", etag: put.etag });
    expect(got?.lastModified.getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect(await text(got!.body)).toBe("png bytes");

    await store.delete(key);
    expect(await store.get(key)).toBeUndefined();
    expect(await filesUnder(path.join(root, "attachments/2026/11"))).toEqual([]);
    await expect(store.delete(key)).resolves.toBeUndefined();
  });

  it("streams a body in and out", async () => {
    const key = "attachments/2026/11/big.bin";
    const chunks = Array.from({ length: 64 }, (_, i) => Buffer.alloc(64 * 1024, i));
    const put = await store.put(key, Readable.from(chunks), {
      contentType: "application/octet-stream",
    });
    expect(put.size).toBe(64 * 64 * 1024);
    const got = await store.get(key);
    const back: Buffer[] = [];
    for await (const chunk of got!.body) back.push(chunk as Buffer);
    expect(Buffer.concat(back).equals(Buffer.concat(chunks))).toBe(true);
  });

  it("shows nothing under the key until the write is complete", async () => {
    const key = "attachments/2026/11/slow.txt";
    const body = new PassThrough();
    const putting = store.put(key, body, { contentType: "text/plain" });
    body.write("first half, ");
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await store.get(key)).toBeUndefined();
    body.end("second half");
    await putting;
    expect(await text((await store.get(key))!.body)).toBe("first half, second half");
  });

  it("leaves neither an object nor a temporary file when the body fails", async () => {
    const key = "attachments/2026/11/broken.png";
    const body = new PassThrough();
    const putting = store.put(key, body, { contentType: "image/png" });
    body.write("partial");
    setTimeout(() => body.destroy(new Error("client went away")), 20);
    await expect(putting).rejects.toThrow("client went away");
    expect(await store.get(key)).toBeUndefined();
    const left = await filesUnder(path.join(root, "attachments/2026/11"));
    expect(left.filter((f) => f.includes("broken"))).toEqual([]);
  });

  it("fails, and nothing else, when the body fails before its folder is made", async () => {
    // Nobody reads the body while the folders are made: its error must fail the put, not reach
    // the process as an unhandled 'error' event (vitest reports one as an error of the run).
    const key = "attachments/2026/12/early.png";
    const body = new PassThrough();
    const putting = store.put(key, body, { contentType: "image/png" });
    body.destroy(new Error("client went away at once"));
    await expect(putting).rejects.toThrow("client went away at once");
    expect(await store.get(key)).toBeUndefined();
    const left = await filesUnder(path.join(root, "attachments/2026/12"));
    expect(left.filter((f) => f.includes("early"))).toEqual([]);
  });

  it("refuses keys that would leave the folder or name a metadata file", async () => {
    await writeFile(path.join(parent, "secret.txt"), "outside");
    for (const key of ["../secret.txt", "/etc/passwd", "a/%2e%2e/%2e%2e/secret.txt", "a\\..\\x"]) {
      await expect(store.get(key)).rejects.toMatchObject({ statusCode: 400 });
      await expect(
        store.put(key, Buffer.from("x"), { contentType: "text/plain" }),
      ).rejects.toMatchObject({ statusCode: 400 });
      await expect(store.delete(key)).rejects.toMatchObject({ statusCode: 400 });
    }
    await store.put("attachments/2026/11/m.png", Buffer.from("x"), { contentType: "image/png" });
    await expect(store.get("attachments/2026/11/.m.png.meta.json")).rejects.toMatchObject({
      statusCode: 400,
    });
    expect(await readFile(path.join(parent, "secret.txt"), "utf8")).toBe("outside");
  });

  it("stores a malformed content type as application/octet-stream", async () => {
    const key = "attachments/2026/11/odd.bin";
    await store.put(key, Buffer.from("x"), { contentType: "text/html\r\nSet-Cookie: a=b" });
    expect((await store.get(key))?.contentType).toBe("application/octet-stream");
  });

  it("answers undefined for a missing key and for a folder", async () => {
    expect(await store.get("attachments/2026/11/missing.png")).toBeUndefined();
    expect(await store.get("attachments/2026")).toBeUndefined();
  });

  it("lists every object's key, but not metadata or half-written files", async () => {
    const lister = new LocalObjectStore(path.join(parent, "listed"));
    await lister.init();
    await lister.put("a/2026/11/one.png", Buffer.from("1"), { contentType: "image/png" });
    await lister.put("b/two.log", Buffer.from("2"), { contentType: "text/plain" });
    await writeFile(path.join(lister.root, "b", ".three.log.1234.tmp"), "half");
    const keys: string[] = [];
    for await (const key of lister.list()) keys.push(key);
    expect(keys.sort()).toEqual(["a/2026/11/one.png", "b/two.log"]);
  });
});
