import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { readBytes } from "../parsers/types.js";
import { MemoryBudget, removeDeadSpools, Spool, uploadName } from "./spool.js";

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");
/** A stream of `bytes` in chunks of `chunk` bytes, as the multipart parser hands a file over. */
const chunked = (bytes: Buffer, chunk: number) =>
  Readable.from(
    Array.from({ length: Math.ceil(bytes.length / chunk) }, (_, i) =>
      bytes.subarray(i * chunk, (i + 1) * chunk),
    ),
  );
const bytesOf = (length: number, seed: number) =>
  Buffer.from(Array.from({ length }, (_, i) => (i * 31 + seed) % 251));

async function streamed(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe("Spool", () => {
  it("keeps small files in memory and larger ones on disk, each readable again and hashed", async () => {
    const budget = new MemoryBudget(1000);
    const spool = await Spool.create({ budget, maxMemoryFileBytes: 100 });
    try {
      const small = bytesOf(100, 1);
      const large = bytesOf(1050, 2);
      const a = await spool.add("results/a-result.json", chunked(small, 30));
      // Goes to disk in the middle of its stream, once it passes the per-file size.
      const b = await spool.add("results/b.png", chunked(large, 64));
      expect(a.content).toEqual(small);
      expect(b.content).toBeUndefined();
      expect([a.size, a.sha256, b.size, b.sha256]).toEqual([
        100,
        sha256(small),
        1050,
        sha256(large),
      ]);
      for (const [file, bytes] of [
        [a, small],
        [b, large],
      ] as const) {
        expect(await streamed(file.open())).toEqual(bytes);
        expect(await streamed(file.open())).toEqual(bytes);
        expect(await readBytes(file)).toEqual(bytes);
      }
      expect(budget.inUse).toBe(100);
      expect(spool.get("results/a-result.json")).toBe(a);
      expect(spool.all()).toEqual([a, b]);
    } finally {
      await spool.dispose();
    }
    expect(budget.inUse).toBe(0);
  });

  it("writes a file of several disk-write pieces whole, whatever the chunk sizes", async () => {
    const spool = await Spool.create({ maxMemoryFileBytes: 100 });
    try {
      // 2.5 MB and a few bytes, in 16 KB chunks: written as two full pieces and a remainder.
      // Then in 500-byte chunks: a piece of over 2,000 chunks, more than IOV_MAX (1,024).
      const bytes = bytesOf(2.5 * 1024 * 1024 + 7, 3);
      for (const [name, chunk] of [
        ["junit.xml", 16 * 1024],
        ["small-chunks.xml", 500],
      ] as const) {
        const file = await spool.add(name, chunked(bytes, chunk));
        expect(file.content).toBeUndefined();
        expect([file.size, file.sha256]).toEqual([bytes.length, sha256(bytes)]);
        // Compared by hash: a deep equality of 2.5 MB byte by byte takes seconds.
        expect(sha256(await readBytes(file))).toBe(sha256(bytes));
      }
    } finally {
      await spool.dispose();
    }
  });

  it("writes small files to disk once the uploads in progress use up the memory budget", async () => {
    const budget = new MemoryBudget(150);
    const first = await Spool.create({ budget, maxMemoryFileBytes: 100 });
    const second = await Spool.create({ budget, maxMemoryFileBytes: 100 });
    try {
      const kept = await first.add("a.json", chunked(bytesOf(100, 3), 100));
      const spilled = await second.add("b.json", chunked(bytesOf(60, 4), 100));
      const empty = await second.add("c.json", Readable.from([]));
      expect(kept.content).toBeDefined();
      expect(spilled.content).toBeUndefined();
      expect(await streamed(spilled.open())).toEqual(bytesOf(60, 4));
      expect([empty.size, (await readBytes(empty)).length]).toEqual([0, 0]);
      expect(budget.inUse).toBe(100);
      await first.dispose();
      expect(budget.inUse).toBe(0);
    } finally {
      await second.dispose();
    }
  });

  it("keeps a file in shared memory, which the parse worker is sent without a copy", async () => {
    const spool = await Spool.create({ budget: new MemoryBudget(1000), maxMemoryFileBytes: 100 });
    try {
      const file = await spool.add("a-result.json", chunked(bytesOf(50, 3), 20));
      // What postMessage does to a task's files: a copy of an ArrayBuffer, the same memory for a
      // SharedArrayBuffer (a 20 MB Allure folder was 20 MB more in the worker).
      const posted = structuredClone(file.content!);
      posted[0] = 255 - posted[0]!;
      expect(file.content![0]).toBe(posted[0]);
      expect(sha256(file.content!)).not.toBe(file.sha256);
    } finally {
      await spool.dispose();
    }
  });

  it("keeps a copy of the bytes, not the (reused) chunks it was given", async () => {
    const spool = await Spool.create();
    try {
      const socketBuffer = Buffer.alloc(64, 0x61);
      const file = await spool.add("a.txt", Readable.from([socketBuffer.subarray(0, 4)]));
      socketBuffer.fill(0x62);
      expect(file.content?.toString()).toBe("aaaa");
      expect(file.content?.buffer.byteLength).toBe(4);
    } finally {
      await spool.dispose();
    }
  });

  it("names files by their client path, made relative and unique", async () => {
    expect(uploadName("C:\\ci\\..\\results\\a.json")).toBe("ci/results/a.json");
    const spool = await Spool.create();
    try {
      await spool.add("/a.json", Readable.from([Buffer.from("1")]));
      const second = await spool.add("a.json", Readable.from([Buffer.from("2")]));
      expect(second.name).toBe("a.json (2)");
    } finally {
      await spool.dispose();
    }
  });
});

describe("removeDeadSpools", () => {
  it("removes the folders of processes that are gone, and only those", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "assay-spools-"));
    try {
      // A process that has exited: its pid is free (reuse within the test is very unlikely).
      const dead = spawnSync(process.execPath, ["-e", "process.pid"]).pid;
      for (const name of [
        `assay-upload-${dead}-abc123`,
        `assay-upload-${process.pid}-def456`,
        "assay-upload-old-style",
        "other-folder",
      ]) {
        mkdirSync(path.join(dir, name));
      }
      expect(await removeDeadSpools(dir)).toBe(1);
      expect(readdirSync(dir).sort()).toEqual([
        `assay-upload-${process.pid}-def456`,
        "assay-upload-old-style",
        "other-folder",
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
