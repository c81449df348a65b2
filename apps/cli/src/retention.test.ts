import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { estimateText, outcomeText } from "./commands/retention.js";

// `assay retention`: it destroys, so it runs only when told to (--yes), and --dry-run says first
// what would go. The pass itself is tested in the server (modules/retention).
const bin = fileURLToPath(new URL("../bin/assay.js", import.meta.url));
const cwd = mkdtempSync(path.join(tmpdir(), "assay-cli-retention-"));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

function assay(args: string[]) {
  const result = spawnSync(process.execPath, [bin, "retention", ...args], {
    cwd,
    env: { PATH: process.env.PATH ?? "", ASSAY_DATA_DIR: path.join(cwd, "data") },
    encoding: "utf8",
    timeout: 60_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe("assay retention", () => {
  it("removes nothing unless told --yes, and says how to look first", () => {
    const { code, stderr } = assay([]);
    expect(code).toBe(1);
    expect(stderr).toContain(
      "retention removes results for good: run `assay retention --dry-run` to see what would go, then `assay retention --yes` to remove it.",
    );
    expect(assay(["--dry-run", "--yes"]).stderr).toContain("choose one: --dry-run");
  });

  it("words the dry run's figures: counts, partitions, disk and object storage", () => {
    const text = estimateText({
      plan: {
        wholeRuns: [1, 2],
        passedResultRuns: [3],
        passedDetailRuns: [],
        failedDetailRuns: [],
      },
      partitions: [{ name: "results_p202501", bytes: 3 * 1024 ** 3 }],
      runs: 2,
      results: 20_000,
      stepsTrimmed: 5,
      attachments: 7,
      databaseBytes: 3.5 * 1024 ** 3,
      databaseSize: 7 * 1024 ** 3,
      objectBytes: 1536,
    });
    expect(text).toBe(
      [
        "Would remove 2 whole run(s) and 20,000 result(s), empty the steps of 5 result(s) and delete 7 attachment(s).",
        "  runs keeping only their failures: 1",
        "  whole monthly partitions dropped: results_p202501 (3.0 GiB)",
        "Database: about 3.5 GiB returned of 7.0 GiB (tables and indexes; partitions dropped return their space at once, rows deleted leave space PostgreSQL reuses).",
        "Object storage: 1.5 KiB returned.",
      ].join("\n"),
    );
  });

  it("says when a pass failed half-way that what it removed stays removed", () => {
    const text = outcomeText({
      id: 1,
      state: "failed",
      totals: {
        runs: 1,
        results: 3,
        stepsTrimmed: 0,
        attachments: 0,
        apiRequests: 0,
        partitions: [],
      },
      bytesFreed: 2048,
      objectBytesFreed: 0,
      databaseBytesBefore: 4096,
      databaseBytesAfter: null,
      message: "the database went away",
    });
    expect(text).toMatch(
      /^Retention pass failed: the database went away \(what it removed before stays removed; run it again\)\./,
    );
    expect(text).toContain("about 2.0 KiB freed (4.0 KiB before, unknown after)");
  });
});
