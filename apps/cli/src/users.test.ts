import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  authorizationRequest,
  CookieJar,
  openLoginPage,
  signInWithPassword,
  submitLogin,
} from "../../../e2e/support/oidc-login.js";
import { startE2eServer, type E2eServer } from "../../../e2e/support/server.js";

// `npx assay users` and the first admin, against a real server started like `npm start`; every
// password is proved by signing in with it through the embedded provider's login form.
const bin = fileURLToPath(new URL("../bin/assay.js", import.meta.url));
let server: E2eServer;
/** The commands' working folder: an empty one of their own, not the repository. */
const cwd = mkdtempSync(path.join(tmpdir(), "assay-cli-users-"));

function assay(args: string[]) {
  const result = spawnSync(process.execPath, [bin, ...args], {
    cwd,
    env: { PATH: process.env.PATH ?? "", ASSAY_DATA_DIR: server.dataDir },
    encoding: "utf8",
    timeout: 60_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** The status of the login form's answer to these credentials: 303 signs in. */
async function loginStatus(email: string, password: string): Promise<number> {
  const jar = new CookieJar();
  const request = authorizationRequest({
    issuer: `${server.url}/oidc`,
    redirectUri: `${server.url}/auth/callback`,
  });
  const { loginUrl } = await openLoginPage(jar, request);
  return (await submitLogin(jar, loginUrl, { email, password })).status;
}

/** The line after `marker` in a command's output: where a password is printed. */
function lineAfter(output: string, marker: RegExp): string {
  const lines = output.split("\n");
  const at = lines.findIndex((line) => marker.test(line));
  return (lines[at + 1] ?? "").trim();
}

beforeAll(async () => {
  server = await startE2eServer();
}, 120_000);
afterAll(async () => {
  await server?.stop();
  rmSync(cwd, { recursive: true, force: true });
});

describe("the first start", () => {
  it("makes one admin and prints its email and a generated password once, not in the log", async () => {
    // The server answers /readyz as soon as it listens; the admin is made and printed just after.
    for (let i = 0; i < 100 && !server.output().includes("More users:"); i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const output = server.output();
    expect(output).toContain(
      "No users yet, so Assay made an admin to sign in with: admin@assay.local",
    );
    const password = /Password \(shown this once; keep it somewhere safe\): (\S+)/.exec(
      output,
    )?.[1];
    expect(password).toMatch(/^[a-z0-9]{5}(-[a-z0-9]{5}){3}$/);
    expect(output.split("\n").filter((line) => line.includes(password as string))).toHaveLength(1);
    expect(output).not.toMatch(/oidc-provider (WARNING|NOTICE)/);

    const { callback } = await signInWithPassword({
      issuer: `${server.url}/oidc`,
      redirectUri: `${server.url}/auth/callback`,
      email: "admin@assay.local",
      password: password as string,
    });
    expect(callback.searchParams.get("code")).toBeTruthy();
  });
});

// Each command is a process of its own (a few seconds on a busy machine); some tests run four.
describe("assay users", { timeout: 120_000 }, () => {
  it("adds a user with a generated password, shown once, that signs in", async () => {
    const added = assay(["users", "add", "--email", "Ana@Example.com", "--name", "Ana Lima"]);
    expect(added.stderr).toBe("");
    expect(added.code).toBe(0);
    expect(added.stdout).toContain("Added user ana@example.com (Ana Lima).");
    const password = lineAfter(added.stdout, /shown this once/);
    expect(password.length).toBeGreaterThanOrEqual(12);
    expect(await loginStatus("ana@example.com", password)).toBe(303);
  });

  it("refuses a second user with the same email, and missing options, with exit code 1", () => {
    const again = assay(["users", "add", "--email", "ana@example.com", "--name", "Ana"]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("A user with the email ana@example.com already exists.");
    expect(assay(["users", "add", "--email", "x@example.com"]).stderr).toContain("needs --name");
    expect(assay(["users", "disable"]).stderr).toContain("needs --email");
    expect(assay(["users", "frobnicate"]).code).toBe(1);
  });

  it("lists users with their role and state", () => {
    assay(["users", "add", "--email", "ops@example.com", "--name", "Ops", "--admin"]);
    const { code, stdout } = assay(["users", "list"]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^EMAIL\s+NAME\s+ROLE\s+STATE\s+CREATED/);
    expect(stdout).toMatch(/admin@assay\.local\s+Admin\s+admin\s+active/);
    expect(stdout).toMatch(/ana@example\.com\s+Ana Lima\s+user\s+active/);
    expect(stdout).toMatch(/ops@example\.com\s+Ops\s+admin\s+active/);
  });

  it("resets a password: the old one stops working, the printed one signs in", async () => {
    const added = assay(["users", "add", "--email", "bo@example.com", "--name", "Bo"]);
    const old = lineAfter(added.stdout, /shown this once/);
    const reset = assay(["users", "reset-password", "--email", "bo@example.com"]);
    expect(reset.code).toBe(0);
    const fresh = lineAfter(reset.stdout, /New password for bo@example.com/);
    expect(fresh).not.toBe(old);
    expect(await loginStatus("bo@example.com", old)).toBe(401);
    expect(await loginStatus("bo@example.com", fresh)).toBe(303);
  });

  it("disables a user, who can no longer sign in", async () => {
    const added = assay(["users", "add", "--email", "cy@example.com", "--name", "Cy"]);
    const password = lineAfter(added.stdout, /shown this once/);
    const disabled = assay(["users", "disable", "--email", "cy@example.com"]);
    expect(disabled.code).toBe(0);
    expect(disabled.stdout).toContain("Disabled cy@example.com");
    expect(await loginStatus("cy@example.com", password)).toBe(403);
    expect(assay(["users", "list"]).stdout).toMatch(/cy@example\.com\s+Cy\s+user\s+disabled /);
    expect(assay(["users", "disable", "--email", "nobody@example.com"]).stderr).toContain(
      "No user with the email nobody@example.com.",
    );
  });

  it("prints none of oidc-provider's development warnings, from start to here", () => {
    expect(server.output()).not.toMatch(/oidc-provider|WARNING/);
  });
});
