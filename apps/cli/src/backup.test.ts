import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import {
  authorizationRequest,
  CookieJar,
  openLoginPage,
  submitLogin,
} from "../../../e2e/support/oidc-login.js";
import { makeDataDir, startE2eServer, type E2eServer } from "../../../e2e/support/server.js";

// `npx assay backup` of an embedded install while its server serves, then `npx assay restore`
// into an empty data folder: the restored server starts with the same runs, screenshots, users
// and secret key (its sign-in keys are sealed with it), proved by signing in and reading back.
const bin = fileURLToPath(new URL("../bin/assay.js", import.meta.url));
const TOKEN = "backup-test-ingest-token-0123456789abcdef";
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);
const cwd = mkdtempSync(path.join(tmpdir(), "assay-cli-backup-"));
const servers: E2eServer[] = [];
const dataDirs: string[] = [];

function assay(args: string[], dataDir: string) {
  const result = spawnSync(process.execPath, [bin, ...args], {
    cwd,
    env: { PATH: process.env.PATH ?? "", ASSAY_DATA_DIR: dataDir, LOG_LEVEL: "warn" },
    encoding: "utf8",
    timeout: 120_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

async function post(server: E2eServer, url: string, body: string | FormData, type?: string) {
  const headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` };
  if (type) headers["content-type"] = type;
  const response = await fetch(`${server.url}${url}`, { method: "POST", headers, body });
  expect(response.status, await response.clone().text()).toBeLessThan(300);
}

async function loginStatus(server: E2eServer, email: string, password: string) {
  const jar = new CookieJar();
  const request = authorizationRequest({
    issuer: `${server.url}/oidc`,
    redirectUri: `${server.url}/auth/callback`,
  });
  const { loginUrl } = await openLoginPage(jar, request);
  return (await submitLogin(jar, loginUrl, { email, password })).status;
}

/** Every object file's SHA-256 by its path under objects/ (metadata sidecars included). */
function objectFiles(dataDir: string): Record<string, string> {
  const root = path.join(dataDir, "objects");
  const files: Record<string, string> = {};
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    files[path.relative(root, file)] = createHash("sha256")
      .update(readFileSync(file))
      .digest("hex");
  }
  return files;
}

afterAll(async () => {
  for (const server of servers) await server.stop();
  for (const dir of [cwd, ...dataDirs]) rmSync(dir, { recursive: true, force: true });
}, 60_000);

describe("assay backup and assay restore", { timeout: 300_000 }, () => {
  it("restore an embedded install into an empty data folder, with its users and screenshots", async () => {
    const sourceDir = await makeDataDir();
    dataDirs.push(sourceDir);
    const source = await startE2eServer({ ASSAY_INGEST_TOKEN: TOKEN }, { dataDir: sourceDir });
    servers.push(source);
    const json = "application/json";
    await post(
      source,
      "/v1/ingest/runs",
      JSON.stringify({ family: "frontend", run_key: "r1" }),
      json,
    );
    const batch = [1, 2, 3].map((n) => ({
      test_run_test_id: `t${n}`,
      name: `t ${n}`,
      status: "passed",
    }));
    await post(source, "/v1/ingest/runs/r1/results", JSON.stringify(batch), json);
    const form = new FormData();
    form.append("file", new Blob([PNG], { type: "image/png" }), "shot.png");
    await post(source, "/v1/ingest/runs/r1/results/t1/attachments", form);
    const added = assay(["users", "add", "--email", "ana@example.com", "--name", "Ana"], sourceDir);
    expect(added.code, added.stderr).toBe(0);
    const password = added.stdout
      .split("\n")
      .find((l) => /^\s*\S{12,}\s*$/.test(l))
      ?.trim();
    expect(password).toBeTruthy();
    const objectsBefore = objectFiles(sourceDir);
    expect(Object.keys(objectsBefore).some((k) => k.endsWith(".png"))).toBe(true);

    // While the source serves: the command shares its embedded PostgreSQL.
    const archive = path.join(cwd, "assay.tar.gz");
    const backup = assay(["backup", archive], sourceDir);
    expect(backup.stderr).toBe("");
    expect(backup.code).toBe(0);
    expect(backup.stdout).toMatch(/^Wrote .*assay\.tar\.gz: \d+ rows in \d+ tables, 1 objects/);
    expect(assay(["backup", archive], sourceDir)).toMatchObject({ code: 1 });
    await source.stop();

    const targetDir = await makeDataDir();
    dataDirs.push(targetDir);
    const restore = assay(["restore", archive], targetDir);
    expect(restore.stderr).toBe("");
    expect(restore.code).toBe(0);
    expect(restore.stdout).toMatch(/^Restored \d+ rows in \d+ tables and 1 objects/);
    expect(readFileSync(path.join(targetDir, "secret-key"))).toEqual(
      readFileSync(path.join(sourceDir, "secret-key")),
    );
    expect(objectFiles(targetDir)).toEqual(objectsBefore);
    // A second restore into the now non-empty folder is refused, changing nothing.
    const again = assay(["restore", archive], targetDir);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("the database is not empty");

    const target = await startE2eServer({ ASSAY_INGEST_TOKEN: TOKEN }, { dataDir: targetDir });
    servers.push(target);
    expect(await loginStatus(target, "ana@example.com", password!)).toBe(303);
    const users = assay(["users", "list"], targetDir);
    expect(users.stdout).toMatch(/ana@example\.com\s+Ana\s+user\s+active/);
    // The restored run takes more results: its ids and sequences carry on after the restored ones.
    const more = [{ test_run_test_id: "t4", name: "t 4", status: "failed" }];
    await post(target, "/v1/ingest/runs/r1/results", JSON.stringify(more), json);
  });
});
