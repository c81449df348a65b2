import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startE2eServer, type E2eServer } from "../../../e2e/support/server.js";

// `npx assay gate` against a real server started like `npm start`, on runs uploaded with
// `npx assay upload` (a JUnit report as Maven Surefire writes it).
const bin = fileURLToPath(new URL("../bin/assay.js", import.meta.url));
const fixtures = fileURLToPath(new URL("../../server/test/fixtures/", import.meta.url));
const INGEST_TOKEN = "cli-test-gate-token-0123456789abcdef";
let server: E2eServer;
const cwd = mkdtempSync(path.join(tmpdir(), "assay-cli-gate-"));

function assay(args: string[]) {
  const result = spawnSync(process.execPath, [bin, ...args], {
    cwd,
    env: { PATH: process.env.PATH ?? "", ASSAY_URL: server.url, ASSAY_TOKEN: INGEST_TOKEN },
    encoding: "utf8",
    timeout: 60_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

beforeAll(async () => {
  server = await startE2eServer({ ASSAY_INGEST_TOKEN: INGEST_TOKEN });
  const first = assay([
    "upload",
    path.join(fixtures, "junit/TEST-com.example.CartTest.xml"),
    "--run-key",
    "gate-run-1",
  ]);
  expect(first.code, first.stderr).toBe(0);
}, 120_000);
afterAll(async () => {
  await server?.stop();
  rmSync(cwd, { recursive: true, force: true });
});

describe("assay gate", () => {
  it("fails (exit 1) when the run has new failures over --max-new, printing the reasons", () => {
    const { code, stdout, stderr } = assay(["gate", "--run-key", "gate-run-1", "--max-new", "0"]);
    expect(code).toBe(1);
    expect(stdout).toMatch(
      /^FAILED: \d+ new failures \(first seen in this run\), at most 0 allowed$/m,
    );
    expect(stderr).toContain("the quality gate failed for run gate-run-1");
  });

  it("passes (exit 0) when the same causes come back: known, not new", () => {
    const again = assay([
      "upload",
      path.join(fixtures, "junit/TEST-com.example.CartTest.xml"),
      "--run-key",
      "gate-run-2",
    ]);
    expect(again.code, again.stderr).toBe(0);
    const { code, stdout } = assay(["gate", "--run-key", "gate-run-2", "--max-new", "0"]);
    expect(stdout).toContain("ok: 0 new failures (first seen in this run), at most 0 allowed");
    expect(stdout).toContain("Quality gate passed for run gate-run-2.");
    expect(code).toBe(0);
  });

  it("says what is wrong for an unknown run and a bad limit", () => {
    const missing = assay(["gate", "--run-key", "no-such-run", "--max-new", "0"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("No run with key no-such-run");
    const bad = assay(["gate", "--run-key", "gate-run-1", "--max-new", "none"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("--max-new must be a whole number");
  });
});
