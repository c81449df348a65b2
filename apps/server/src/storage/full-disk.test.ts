import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import FormData from "form-data";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp } from "../../test/build-test-app.js";
import { createTestDatabase, type TestDatabase } from "../../test/test-database.js";
import { TEST_INGEST_TOKEN } from "../../test/upload.js";
import { LocalObjectStore } from "./local-store.js";

// A full disk under the object store, for real: a 512 kB tmpfs mounted as the store's folder
// (root only; skipped elsewhere). An attachment that does not fit is refused with 507
// storage_full, leaving no file and no row; once space returns, attachments are stored again.
const folder = mkdtempSync(path.join(tmpdir(), "assay-full-disk-"));
let mounted = false;
if (process.getuid?.() === 0) {
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=512k", "tmpfs", folder]);
    mounted = true;
  } catch {
    // No permission to mount (a container without CAP_SYS_ADMIN): the test is skipped.
  }
}

let database: TestDatabase;
let app: FastifyInstance;
const auth = { authorization: `Bearer ${TEST_INGEST_TOKEN}` };

function attach(bytes: number) {
  const form = new FormData();
  form.append("file", Buffer.alloc(bytes, 7), {
    filename: "video.webm",
    contentType: "video/webm",
  });
  return app.inject({
    method: "POST",
    url: "/v1/ingest/runs/disk/results/t1/attachments",
    headers: { ...auth, ...form.getHeaders() },
    payload: form.getBuffer(),
  });
}

const filesIn = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => e.name);

beforeAll(async () => {
  if (!mounted) return;
  database = await createTestDatabase();
  const objects = new LocalObjectStore(folder);
  await objects.init();
  ({ app } = await buildTestApp(database.db, {
    env: { ASSAY_INGEST_TOKEN: TEST_INGEST_TOKEN },
    objects,
  }));
  const post = (url: string, payload: unknown) =>
    app.inject({ method: "POST", url, headers: auth, payload: payload as string });
  await post("/v1/ingest/runs", { family: "frontend", run_key: "disk" });
  await post("/v1/ingest/runs/disk/results", [
    { test_run_test_id: "t1", name: "records a video", status: "failed" },
  ]);
});

afterAll(async () => {
  await app?.close();
  await database?.drop();
  if (mounted) execFileSync("umount", [folder]);
  rmSync(folder, { recursive: true, force: true });
});

describe.skipIf(!mounted)("a full object store disk", () => {
  it("refuses what does not fit with 507 storage_full, keeps nothing of it, and recovers", async () => {
    const full = await attach(700_000);
    expect(full.statusCode).toBe(507);
    expect(full.json()).toEqual({
      error: { code: "storage_full", message: "The object store is out of space; try later." },
    });
    expect(filesIn(folder)).toEqual([]);
    const rows = await database.db.pool.query("SELECT count(*)::int AS n FROM attachments");
    expect(rows.rows[0].n).toBe(0);

    // Space returns (here: a smaller file fits): service is normal again, no restart.
    const fits = await attach(100_000);
    expect(fits.statusCode, fits.body).toBe(201);
    expect(filesIn(folder).filter((name) => !name.startsWith("."))).toHaveLength(1);
  });
});
