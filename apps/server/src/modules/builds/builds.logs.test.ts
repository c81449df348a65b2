import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { text } from "node:stream/consumers";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { LocalObjectStore } from "../../storage/local-store.js";
import { insertBuildUser } from "../../../test/build-apps.js";
import { insertRunningBuild } from "../../../test/running-build.js";
import { createTestDatabase } from "../../../test/test-database.js";
import { keepLocalLog, logStream, logTail, type LogDeps } from "./builds.logs.js";
import { SecretMask } from "./builds.mask.js";
import { findBuild, type BuildRow } from "./builds.repo.js";
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

describe("a local build's log read across its end", () => {
  // The CI of stop 42 failed on this: a build's page read its row while the build ran, the
  // build ended and moved its log file to object storage, and the page found neither.
  it("is found in object storage when the row was read before the file moved", async () => {
    const root = await mkdtemp(path.join(tmpdir(), "assay-logs-"));
    dirs.push(root);
    const database = await createTestDatabase();
    try {
      const user = await insertBuildUser(database);
      await insertRunningBuild(database, "log-race", user.id);
      const { id } = await database.db.kysely
        .selectFrom("builds")
        .select("id")
        .where("test_run_key", "=", "log-race")
        .executeTakeFirstOrThrow();
      const objects = new LocalObjectStore(path.join(root, "objects"));
      await objects.init();
      const logDir = path.join(root, "build-logs");
      const deps = {
        db: database.db.kysely,
        objects,
        logDir,
        remote: () => undefined,
        mask: async () => new SecretMask([]),
      } satisfies LogDeps;
      await mkdir(logDir, { recursive: true });
      await writeFile(logPathOf(logDir, id), "first line\nlast line\n");
      const stale = (await findBuild(database.db.kysely, id))!;
      expect((await logTail(deps, stale, 1000)).text).toBe("first line\nlast line\n");
      await keepLocalLog(deps, stale);
      expect(stale.log_key).toBeNull();
      expect(await logTail(deps, stale, 10)).toEqual({
        text: "last line\n",
        truncated: true,
        bytes: 21,
      });
      expect(await text((await logStream(deps, stale))!)).toBe("first line\nlast line\n");
    } finally {
      await database.drop();
    }
  });
});
