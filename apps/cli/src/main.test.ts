import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

// The built command, as `npx assay` runs it (npm test builds before testing).
const bin = fileURLToPath(new URL("../bin/assay.js", import.meta.url));
const cwd = mkdtempSync(path.join(tmpdir(), "assay-cli-"));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

function assay(args: string[], env: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, [bin, ...args], {
    cwd,
    env: { PATH: process.env.PATH ?? "", ...env },
    encoding: "utf8",
    timeout: 20_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe("assay", () => {
  it("lists its commands with --help", () => {
    const { code, stdout } = assay(["--help"]);
    expect(code).toBe(0);
    expect(stdout).toContain("start     start the server");
    expect(stdout).toContain("migrate   apply pending database migrations");
  });

  it("shows a command's usage and examples", () => {
    const { code, stdout } = assay(["start", "--help"]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Usage: assay start/);
    expect(stdout).toContain("Examples:");
  });

  it("names the upload's JUnit retries choice in its usage", () => {
    const { code, stdout } = assay(["upload", "--help"]);
    expect(code).toBe(0);
    expect(stdout).toMatch(
      /--junit-retries +JUnit: same-named test cases of one suite are retries/,
    );
  });

  it("refuses an unknown command with exit code 1", () => {
    const { code, stderr } = assay(["frobnicate"]);
    expect(code).toBe(1);
    expect(stderr).toContain('unknown command "frobnicate"');
  });

  it("stops before starting anything when a setting is bad, naming each one", () => {
    const { code, stderr } = assay(["start"], { PORT: "eighty", LOG_LEVEL: "chatty" });
    expect(code).toBe(1);
    expect(stderr).toContain("Assay cannot start: the configuration is invalid.");
    expect(stderr).toContain('PORT: expected an integer from 1 to 65535, got "eighty"');
    expect(stderr).toContain("LOG_LEVEL: expected one of");
    expect(stderr).not.toContain("    at ");
  });

  it("names the file, line and column of a malformed assay.config.yaml", () => {
    writeFileSync(path.join(cwd, "assay.config.yaml"), "catalog:\n  sites: [oops\n");
    const { code, stderr } = assay(["migrate"]);
    expect(code).toBe(1);
    expect(stderr).toMatch(/assay\.config\.yaml line \d+, column \d+: /);
  });
});
