import { mkdir, mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { LocalObjectStore } from "../../storage/local-store.js";
import { keepLocalLog, type LogDeps } from "./builds.logs.js";
import { SecretMask } from "./builds.mask.js";
import type { BuildRow } from "./builds.repo.js";
import { logPathOf } from "./executors/local.js";

const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

describe("keepLocalLog", () => {
  // The CI of stop 41 crashed on this: a log that could not be read (its data folder removed
  // while the build's end was recorded) threw outside any promise, from the file's stream.
  it("fails its promise, not the process, when the log cannot be read, and stores nothing", async () => {
    const root = await mkdtemp(path.join(tmpdir(), "assay-logs-"));
    dirs.push(root);
    const logDir = path.join(root, "build-logs");
    // A folder where the log file should be: it exists, and reading it fails (EISDIR).
    await mkdir(logPathOf(logDir, 7), { recursive: true });
    const objects = new LocalObjectStore(path.join(root, "objects"));
    await objects.init();
    const deps = {
      db: undefined as never,
      objects,
      logDir,
      remote: () => undefined,
      mask: async () => new SecretMask([]),
    } satisfies LogDeps;
    await expect(keepLocalLog(deps, { id: 7 } as BuildRow)).rejects.toMatchObject({
      code: "EISDIR",
    });
    const stored = await readdir(path.join(root, "objects"), { recursive: true });
    expect(stored.filter((name) => name.endsWith(".log"))).toEqual([]);
  });
});
