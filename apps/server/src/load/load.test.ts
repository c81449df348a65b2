import { describe, expect, it } from "vitest";
import { percentile, readersTable } from "./load-report.js";
import { readRoutes, shareReaders } from "./readers.js";
import { checkUploads, type Uploader, type UploadRecord } from "./uploaders.js";

// The load test's own arithmetic and checks (npm run load), which decide PASS and FAIL.

describe("the load test's reader mix", () => {
  const targets = { frontendRuns: ["r1"], backendRuns: ["b1"], testIds: [7], frontendPages: 3 };

  it("gives the routes 50 readers by weight, and 40 with every route still read", () => {
    const weights = readRoutes(targets).map((r) => r.weight);
    expect(shareReaders(weights, 50)).toEqual(weights);
    const forty = shareReaders(weights, 40);
    expect(forty.reduce((a, b) => a + b, 0)).toBe(40);
    expect(Math.min(...forty)).toBeGreaterThanOrEqual(1);
  });
});

describe("the load test's figures", () => {
  it("takes nearest-rank percentiles", () => {
    const values = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(values, 0.5)).toBe(50);
    expect(percentile(values, 0.99)).toBe(99);
    expect(percentile([3], 0.99)).toBe(3);
    expect(percentile([], 0.5)).toBeNaN();
  });

  it("fails a route with an error or a p99 over the target", () => {
    const fast = { route: "fast", latencies: [1, 2, 3], errors: 0, statuses: {} };
    expect(readersTable([fast], 1, 200).pass).toBe(true);
    expect(readersTable([{ ...fast, latencies: [1, 2, 300] }], 1, 200).pass).toBe(false);
    const failing = readersTable([{ ...fast, errors: 1, statuses: { "503": 1 } }], 1, 200);
    expect(failing.pass).toBe(false);
    expect(failing.lines.join("\n")).toContain("503 x1");
  });
});

describe("the upload check", () => {
  const counts = { total: 10, passed: 8, failed: 1, pending: 1, flaky: 0 };
  const uploaders: Uploader[] = [
    {
      index: 0,
      file: { path: "x", name: "x.xml", size: 1 },
      expected: { ...counts, results: 11 },
      firstKey: "first",
    },
  ];
  const stored = (key: string, results = 11) => ({ test_run_key: key, ...counts, results });
  const ack = (key: string): UploadRecord => ({ uploader: 0, status: 201, ms: 5, key, counts });

  it("passes when every acknowledged upload is stored whole and nothing else is", () => {
    const check = checkUploads(
      uploaders,
      [ack("a"), ack("b")],
      [stored("first"), stored("a"), stored("b")],
    );
    expect(check).toMatchObject({ acknowledged: 2, failed: 0, lost: [], extra: [] });
  });

  it("reports a missing run, a run short of results and a run nobody was answered for", () => {
    const check = checkUploads(
      uploaders,
      [ack("a"), ack("b"), { uploader: 0, status: 503, ms: 5, error: "down" }],
      [stored("first"), stored("b", 10), stored("c")],
    );
    expect(check.failed).toBe(1);
    expect(check.lost).toEqual(["a: not stored", "b: 10 results stored, 11 expected"]);
    expect(check.extra).toEqual(["c"]);
  });
});
