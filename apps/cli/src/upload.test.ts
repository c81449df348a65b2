import { execFile, spawnSync } from "node:child_process";
import { createServer } from "node:http";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startE2eServer, type E2eServer } from "../../../e2e/support/server.js";

// `npx assay upload` and `npx assay tokens` against a real server started like `npm start`.
const bin = fileURLToPath(new URL("../bin/assay.js", import.meta.url));
const fixtures = fileURLToPath(new URL("../../server/test/fixtures/", import.meta.url));
const INGEST_TOKEN = "cli-test-ingest-token-0123456789abcdef";
let server: E2eServer;
/** This file's scratch folder (the commands' empty working folder, generated reports). */
const scratch = mkdtempSync(path.join(tmpdir(), "assay-cli-upload-"));
const cwd = path.join(scratch, "cwd");
mkdirSync(cwd);

function assay(args: string[], env: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, [bin, ...args], {
    cwd,
    env: {
      PATH: process.env.PATH ?? "",
      ASSAY_URL: server.url,
      ASSAY_DATA_DIR: server.dataDir,
      ...env,
    },
    encoding: "utf8",
    timeout: 60_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

beforeAll(async () => {
  server = await startE2eServer({ ASSAY_INGEST_TOKEN: INGEST_TOKEN });
}, 120_000);
afterAll(async () => {
  await server?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

describe("assay upload", () => {
  it("uploads a report and prints the run key, the counts and the run's URL", () => {
    const { code, stdout, stderr } = assay(
      [
        "upload",
        path.join(fixtures, "cucumber/cucumber-report.json"),
        "--site",
        "stage.example.com",
        "--run-key",
        "cli-run-1",
      ],
      { ASSAY_TOKEN: INGEST_TOKEN },
    );
    expect(stderr).toBe("");
    expect(code).toBe(0);
    expect(stdout).toContain("Run cli-run-1: 6 results stored.");
    expect(stdout).toContain("Total 6, passed 3, failed 2, skipped 1.");
    expect(stdout).toContain(`${server.url}/test_runs/cli-run-1`);
  });

  it("names the run TEST_RUN_NAME, as a build's runner is given it, unless --name says otherwise", async () => {
    const report = path.join(fixtures, "cucumber/cucumber-report.json");
    const env = { ASSAY_TOKEN: INGEST_TOKEN, TEST_RUN_NAME: "nightly build 42" };
    expect(assay(["upload", report, "--run-key", "cli-named-1"], env).code).toBe(0);
    expect(assay(["upload", report, "--run-key", "cli-named-2", "--name", "given"], env).code).toBe(
      0,
    );
    for (const [key, name] of [
      ["cli-named-1", "nightly build 42"],
      ["cli-named-2", "given"],
    ]) {
      const answer = await fetch(`${server.url}/v1/test-runs/${key}`);
      expect(((await answer.json()) as { run: { test_run_name: string } }).run.test_run_name).toBe(
        name,
      );
    }
  });

  it("prints what the report said that was stored otherwise, and merges JUnit retries when asked", () => {
    const nameless = assay([
      "upload",
      path.join(fixtures, "junit/jest-junit-nameless.xml"),
      "--token",
      INGEST_TOKEN,
    ]);
    expect(nameless.code).toBe(0);
    expect(nameless.stdout).toContain("Total 3, passed 3, failed 0, skipped 0.");
    expect(nameless.stdout).toContain(
      "Warning: jest-junit-nameless.xml: a <testcase> has neither a name nor a classname; stored as 'unnamed test 1 in tests-nameless/promiseReject.test.js'.",
    );
    const report = path.join(scratch, "TEST-rerun.xml");
    writeFileSync(
      report,
      '<testsuite name="s" tests="2"><testcase name="t"><failure/></testcase><testcase name="t"/></testsuite>',
    );
    const distinct = assay(["upload", report, "--token", INGEST_TOKEN]);
    expect(distinct.stdout).toContain("Total 2, passed 1, failed 1, skipped 0.");
    const merged = assay(["upload", report, "--junit-retries", "--token", INGEST_TOKEN]);
    expect(merged.code).toBe(0);
    expect(merged.stdout).toContain("Total 1, passed 1, failed 0, skipped 0, flaky 1.");
  });

  it("sends an Allure results folder whole", () => {
    const { code, stdout } = assay([
      "upload",
      path.join(fixtures, "allure/results"),
      "--token",
      INGEST_TOKEN,
    ]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/Total 6, passed 2, failed 3, skipped 1, flaky 1\./);
  });

  it("sends a TRX with its result files, and go test -json, each detected from its content", () => {
    const trx = assay(["upload", path.join(fixtures, "trx"), "--token", INGEST_TOKEN]);
    expect(trx.stderr).toBe("");
    expect(trx.code).toBe(0);
    expect(trx.stdout).toContain("Total 8, passed 2, failed 4, skipped 2.");
    const go = assay([
      "upload",
      path.join(fixtures, "gotest/go-test.json"),
      "--token",
      INGEST_TOKEN,
    ]);
    expect(go.code).toBe(0);
    expect(go.stdout).toContain("Total 9, passed 4, failed 4, skipped 1.");
  });

  it("sends a folder of more files than it may hold open at once", () => {
    // `ulimit -n` sets the hard limit too, so Node cannot raise it: 600 files, 128 descriptors.
    const dir = path.join(scratch, "allure-results");
    mkdirSync(dir);
    for (let i = 0; i < 600; i++) {
      const uuid = `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`;
      const result = {
        uuid,
        historyId: `history-${i}`,
        name: `test ${i}`,
        fullName: `many.spec.js: test ${i}`,
        status: i % 10 === 0 ? "failed" : "passed",
        stage: "finished",
        start: 1795354190407 + i,
        stop: 1795354190417 + i,
        labels: [{ name: "suite", value: `suite ${i % 7}` }],
      };
      writeFileSync(path.join(dir, `${uuid}-result.json`), JSON.stringify(result));
    }
    const result = spawnSync(
      "sh",
      ["-c", 'ulimit -n 128 && exec "$0" "$@"', process.execPath, bin, "upload", dir],
      {
        env: { PATH: process.env.PATH ?? "", ASSAY_URL: server.url, ASSAY_TOKEN: INGEST_TOKEN },
        encoding: "utf8",
        timeout: 60_000,
      },
    );
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    expect(result.stdout).toContain("Total 600, passed 540, failed 60, skipped 0.");
  });

  it("exits 1 with one line for a refused token", () => {
    const { code, stderr } = assay([
      "upload",
      path.join(fixtures, "mocha/mocha-report.json"),
      "--token",
      "assay_wrong",
    ]);
    expect(code).toBe(1);
    expect(stderr.trim().split("\n")).toHaveLength(1);
    expect(stderr).toContain("assay: the server refused the token");
  });

  it("exits 1 with the server's message for a file that is no report", () => {
    const dir = path.join(scratch, "notes");
    mkdirSync(dir);
    writeFileSync(path.join(dir, "notes.txt"), "hello");
    const { code, stderr } = assay([
      "upload",
      path.join(dir, "notes.txt"),
      "--token",
      INGEST_TOKEN,
    ]);
    expect(code).toBe(1);
    expect(stderr).toContain("No test report found among the uploaded files (notes.txt)");
  });

  it("exits 1 when a path does not exist, or a glob matches nothing", () => {
    expect(assay(["upload", "missing.xml"]).stderr).toContain(
      "assay: no such file or folder: missing.xml",
    );
    expect(assay(["upload", "reports/**/*.xml"]).stderr).toContain(
      'assay: no file matches "reports/**/*.xml".',
    );
  });

  it("exits 2 with one line when the server fails or answers something else", async () => {
    // Answers each upload with the next of these, having read the body.
    const answers = [
      { status: 500, body: '{"error":{"code":"internal","message":"Internal server error"}}' },
      { status: 502, body: "<html>Bad Gateway</html>" },
      { status: 200, body: '{"ok":true}' },
    ];
    const fake = createServer((request, response) => {
      request.resume();
      request.on("end", () => {
        const answer = answers.shift()!;
        response.writeHead(answer.status, { "content-type": "application/json" });
        response.end(answer.body);
      });
    });
    await new Promise<void>((resolve) => fake.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(fake.address() as { port: number }).port}`;
    // Not spawnSync: this process must answer while the command runs.
    const upload = () =>
      new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
        const args = [bin, "upload", path.join(fixtures, "mocha/mocha-report.json")];
        const env = { PATH: process.env.PATH ?? "", ASSAY_URL: url, ASSAY_TOKEN: "t" };
        const child = execFile(process.execPath, args, { cwd, env }, (_error, stdout, stderr) =>
          resolve({ code: child.exitCode, stdout, stderr }),
        );
      });
    try {
      const failed = await upload();
      expect(failed.code).toBe(2);
      expect(failed.stderr.trim().split("\n")).toEqual([
        "assay: the server failed (HTTP 500): Internal server error; its log says why.",
      ]);
      const gateway = await upload();
      expect(gateway.code).toBe(2);
      expect(gateway.stderr.trim()).toBe("assay: the server failed (HTTP 502); its log says why.");
      const other = await upload();
      expect(other.code).toBe(2);
      expect(other.stdout).toBe("");
      expect(other.stderr.trim().split("\n")).toEqual([
        `assay: ${url}/ answered HTTP 200, but not as an Assay server answers an upload; check --server or ASSAY_URL.`,
      ]);
    } finally {
      fake.close();
    }
  });

  it("exits 1 when the server cannot be reached", () => {
    const { code, stderr } = assay(["upload", path.join(fixtures, "mocha/mocha-report.json")], {
      ASSAY_URL: "http://127.0.0.1:9",
    });
    expect(code).toBe(1);
    expect(stderr).toContain("cannot reach the Assay server at http://127.0.0.1:9");
  });
});

describe("assay tokens", () => {
  it("creates a token that uploads work with, lists it, and revokes it", () => {
    const created = assay(["tokens", "create", "--name", "nightly-ci"]);
    expect(created.code).toBe(0);
    const token = created.stdout.trim().split("\n").at(-1) ?? "";
    expect(token).toMatch(/^assay_[A-Za-z0-9_-]{43}$/);

    const report = path.join(fixtures, "mocha/mocha-report.json");
    expect(assay(["upload", report, "--token", token]).code).toBe(0);

    const listed = assay(["tokens", "list"]);
    expect(listed.stdout).toMatch(/^nightly-ci\tingest\tactive\tlast used /m);
    expect(listed.stdout).not.toContain(token);

    expect(assay(["tokens", "revoke", "--name", "nightly-ci"]).code).toBe(0);
    expect(assay(["upload", report, "--token", token]).code).toBe(1);
  });

  it("refuses a second token with the same name", () => {
    assay(["tokens", "create", "--name", "twice"]);
    const again = assay(["tokens", "create", "--name", "twice"]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('A token named "twice" already exists');
  });
});
