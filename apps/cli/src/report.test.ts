import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// `assay report` as `npx assay` runs it, against an HTTP server answering the report's path as
// Assay does (the route itself is tested in apps/server/src/modules/report/report.test.ts).
const bin = fileURLToPath(new URL("../bin/assay.js", import.meta.url));
const cwd = mkdtempSync(path.join(tmpdir(), "assay-report-"));
const HTML = "<!doctype html><title>run</title><h1>Nightly</h1>";
const seen: { url?: string; auth?: string }[] = [];
const server = createServer((request, response) => {
  seen.push({ url: request.url, auth: request.headers.authorization });
  if (request.url?.split("?")[0] === "/v1/test-runs/nightly%2042/report.html")
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(HTML);
  else
    response
      .writeHead(404, { "content-type": "application/json" })
      .end(JSON.stringify({ error: { code: "not_found", message: "No run with key gone." } }));
});
let url = "";

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(cwd, { recursive: true, force: true });
});

function assay(args: string[]) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], {
      cwd,
      env: { PATH: process.env.PATH ?? "" },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("assay report", () => {
  it("writes the run's HTML report to -o, sending the token", async () => {
    const result = await assay([
      "report",
      "--run-key",
      "nightly 42",
      "-o",
      "run.html",
      "--server",
      url,
      "--token",
      "t0k",
    ]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Wrote run\.html/);
    expect(readFileSync(path.join(cwd, "run.html"), "utf8")).toBe(HTML);
    expect(seen.at(-1)?.auth).toBe("Bearer t0k");
    expect(seen.at(-1)?.url).not.toContain("screenshots");
  });

  it("asks for the screenshots inlined with --screenshots", async () => {
    const result = await assay([
      "report",
      "--run-key",
      "nightly 42",
      "--screenshots",
      "--server",
      url,
    ]);
    expect(result.code).toBe(0);
    expect(seen.at(-1)?.url).toBe("/v1/test-runs/nightly%2042/report.html?screenshots=true");
  });

  it("says the server's reason and exits 1 for an unknown run, and asks for --run-key", async () => {
    const gone = await assay(["report", "--run-key", "gone", "--server", url]);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain("No run with key gone.");
    const missing = await assay(["report", "--server", url]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("--run-key");
  });
});
