import { spawnSync } from "node:child_process";
import { mkdtemp, readdir, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LocalObjectStore } from "./local-store.js";

// A put killed half-way (kill -9 of the server) leaves its half-written file in `.partial/`;
// the next start removes those of processes that are gone (issue #25, crash campaign).

let root: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), "assay-partial-"));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** The pid of a process that has ended. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"]);
  return Number(child.stdout.toString());
}

describe("half-written objects", () => {
  it("are kept out of the store's folders and listing, and gone once the put ends", async () => {
    const store = new LocalObjectStore(root);
    await store.init();
    await store.put("attachments/2026/11/a.png", Buffer.from("png"), { contentType: "image/png" });
    expect(await readdir(path.join(root, ".partial"))).toEqual([]);
    const keys: string[] = [];
    for await (const key of store.list()) keys.push(key);
    expect(keys).toEqual(["attachments/2026/11/a.png"]);
  });

  it("are removed at start when their process is gone or wrote them before this one started", async () => {
    const partial = path.join(root, ".partial");
    const dead = `${deadPid()}-0b6f.tmp`;
    const oldOwn = `${process.pid}-9c1d.tmp`;
    const freshOwn = `${process.pid}-77aa.tmp`;
    const live = `${process.ppid}-5e2f.tmp.meta`;
    for (const name of [dead, `${dead}.meta`, oldOwn, freshOwn, live])
      await writeFile(path.join(partial, name), "half");
    const beforeThisProcess = new Date(Date.now() - process.uptime() * 1000 - 60_000);
    await utimes(path.join(partial, oldOwn), beforeThisProcess, beforeThisProcess);

    const removed = await new LocalObjectStore(root).init();
    expect(removed).toBe(3);
    expect((await readdir(partial)).sort()).toEqual([freshOwn, live].sort());
  });
});
