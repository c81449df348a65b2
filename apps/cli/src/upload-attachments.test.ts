import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startE2eServer, type E2eServer } from "../../../e2e/support/server.js";
import { referencedPaths, uploadName } from "./commands/upload-attachments.js";

/*
 * `assay upload report.json` sends the files a Playwright or CTRF JSON report refers to by path.
 * The reports are the real reporters' output (test/fixtures/{playwright,ctrf}/with-files, see the
 * generators' READMEs), copied with their files and their absolute paths moved to the copy, as
 * if written there; the server says which references it could not match.
 */

const bin = fileURLToPath(new URL("../bin/assay.js", import.meta.url));
const fixtures = fileURLToPath(new URL("../../server/test/fixtures/", import.meta.url));
const TOKEN = "cli-test-ingest-token-0123456789abcdef";
const scratch = mkdtempSync(path.join(tmpdir(), "assay-cli-attachments-"));
let server: E2eServer;

/** The fixture's folder copied into the scratch folder, its report's paths pointing there. */
function placed(format: "playwright" | "ctrf", report: string): string {
  const folder = path.join(scratch, format);
  cpSync(path.join(fixtures, format, "with-files"), folder, { recursive: true });
  const file = path.join(folder, report);
  const text = readFileSync(file, "utf8");
  writeFileSync(file, text.replaceAll(`/tmp/gen-json/${format}/`, `${folder}/`));
  return file;
}

function upload(args: string[]) {
  const result = spawnSync(process.execPath, [bin, "upload", ...args], {
    cwd: scratch,
    env: { PATH: process.env.PATH ?? "", ASSAY_URL: server.url, ASSAY_TOKEN: TOKEN },
    encoding: "utf8",
    timeout: 60_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

beforeAll(async () => {
  server = await startE2eServer({ ASSAY_INGEST_TOKEN: TOKEN });
}, 120_000);
afterAll(async () => {
  await server?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

describe("attachments by path", () => {
  it("reads the paths of Playwright's and CTRF's attachments, and names each by its tail", () => {
    const read = (file: string) =>
      referencedPaths(JSON.parse(readFileSync(path.join(fixtures, file), "utf8")));
    const playwright = read("playwright/with-files/report.json");
    expect(playwright).toHaveLength(5);
    expect(playwright.filter((p) => p.endsWith(".png"))).toHaveLength(1);
    expect(read("ctrf/with-files/ctrf-report.json")).toHaveLength(3);
    // Cucumber JSON embeds its attachments: nothing to send.
    expect(read("cucumber/cucumber-report.json")).toEqual([]);
    expect(uploadName("/home/ci/app/test-results/a-b-node/attachments/shot-1.png")).toBe(
      "home/ci/app/test-results/a-b-node/attachments/shot-1.png".split("/").slice(-6).join("/"),
    );
    expect(uploadName("C:\\ci\\out\\shot.png")).toBe("ci/out/shot.png");
  });

  it("sends a Playwright report's files with it, found by the paths it wrote", () => {
    const report = placed("playwright", "report.json");
    const sent = upload([report, "--run-key", "cli-pw-files"]);
    expect(sent.stderr).toBe("");
    expect(sent.code).toBe(0);
    expect(sent.stdout).toMatch(/Sent 5 attachment\(s\) the reports refer to/);
    expect(sent.stdout).not.toContain("Attachments not found");
    // Without them, the server names what it could not find: the files above were the ones.
    const bare = upload([report, "--run-key", "cli-pw-bare", "--no-attachments"]);
    expect(bare.code).toBe(0);
    expect(bare.stdout).not.toContain("Sent ");
    expect(bare.stdout).toContain("Attachments not found in the upload:");
  });

  it("sends a CTRF report's files with it", () => {
    const sent = upload([placed("ctrf", "ctrf-report.json"), "--run-key", "cli-ctrf-files"]);
    expect(sent.code).toBe(0);
    expect(sent.stdout).toMatch(/Sent 3 attachment\(s\) the reports refer to/);
    expect(sent.stdout).not.toContain("Attachments not found");
  });
});
