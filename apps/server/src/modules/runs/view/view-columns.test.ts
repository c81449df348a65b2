import { PENDING_MARKER } from "@assay/core";
import { describe, expect, it } from "vitest";
import { RunViewCache, type KeptView } from "./view-cache.js";
import type { ResultInput } from "./view-columns.js";
import { ViewResultsBuilder, viewResultsOf } from "./view-columns-builder.js";
import { lowerTag } from "./view-filter.js";

// The kept view's columns give back each result's row, history entry and filter facts as the
// object per result did (session 35: the same answers from a fifth of the memory).

const START = new Date("2025-06-05T10:00:00.123Z");

function frontendInput(i: number, overrides: Partial<ResultInput> = {}): ResultInput {
  return {
    id: 1000 + i,
    test_run_test_id: `trt-${i}`,
    test_id: 50 + (i % 3),
    name: `Name ${i}`,
    title: i % 2 ? `Title ${i}` : null,
    scenario: i % 2 ? null : `Scenario ${i}`,
    status: (["passed", "failed", "skipped", "unstable"] as const)[i % 4]!,
    raw: (["passed", "failed", "skipped", "failed"] as const)[i % 4]!,
    pending: i % 4 === 2,
    start_ms: i % 2 ? START.getTime() : null,
    duration_ms: 12.5 * i,
    tags: i % 2 ? [" @Smoke", "UI"] : [],
    pending_reason: i % 4 === 2 ? "waits for NXL-1" : null,
    flaky: i === 3,
    error_message: i % 4 === 1 ? `boom ${i}` : null,
    error_cut: i === 1,
    tickets: i % 4 === 1 ? ["NXL-7"] : [],
    nora_site: `site-${i % 2}`,
    chrome_version: `chrome-${i}`,
    platform: i % 2 ? "linux" : null,
    commit_hash: `c${i}`,
    screenshot: i === 3 ? "shots/3.png" : null,
    ...overrides,
  };
}

describe("ViewResults", () => {
  it("gives back each frontend row, in the columns' order", () => {
    const inputs = [0, 1, 2, 3].map((i) => frontendInput(i));
    const results = viewResultsOf(inputs, "frontend", lowerTag);
    expect(results.length).toBe(4);
    for (const [i, r] of inputs.entries()) {
      expect(results.rowOf(i)).toEqual([
        r.id,
        r.test_run_test_id,
        r.test_id,
        r.name,
        r.title,
        r.scenario,
        r.status,
        r.flaky,
        r.duration_ms,
        r.tags,
        r.error_message,
        r.error_cut,
        r.tickets,
        r.pending_reason,
        r.nora_site,
        r.chrome_version,
        r.platform,
        r.commit_hash,
        r.screenshot,
      ]);
      expect(results.statusOf(i)).toBe(r.status);
      expect(results.idOf(i)).toBe(r.id);
      expect(results.testIdOf(i)).toBe(r.test_id);
      expect(results.testRunTestIdOf(i)).toBe(r.test_run_test_id);
      expect(results.tagsOf(i)).toEqual(r.tags.map(lowerTag));
    }
    // Equal tag lists are kept once.
    expect(results.rowOf(1)[9]).toBe(results.rowOf(3)[9]);
  });

  it("gives back each backend row, with its attempt", () => {
    const inputs = [0, 1].map((i) => ({ ...frontendInput(i), attempt: i + 2 }));
    const results = viewResultsOf(inputs, "backend", lowerTag);
    expect(results.rowOf(1)).toEqual([
      1001,
      "trt-1",
      51,
      "Name 1",
      "Title 1",
      null,
      "failed",
      3,
      12.5,
      null,
    ]);
    expect(results.rowOf(0)[7]).toBe(2);
  });

  it("gives the history's entries: raw status, pending marker, start", () => {
    const results = viewResultsOf(
      [0, 1, 2, 3].map((i) => frontendInput(i)),
      "frontend",
      lowerTag,
    );
    expect(results.entryOf(1)).toEqual({
      test_id: 51,
      test_run_test_id: "trt-1",
      status: "failed",
      error_message: null,
      start_time: START,
    });
    expect(results.entryOf(2)).toMatchObject({ error_message: PENDING_MARKER, start_time: null });
    expect(results.entryOf(2).status).toBe("skipped");
  });

  it("finds a test's results in report order, tests in the order asked", () => {
    const results = viewResultsOf(
      [0, 1, 2, 3, 4, 5, 6].map((i) => frontendInput(i)),
      "frontend",
      lowerTag,
    );
    // test ids: 50, 51, 52, 50, 51, 52, 50
    expect(results.ofTests([51, 50])).toEqual([1, 4, 0, 3, 6]);
    expect(results.ofTests([99])).toEqual([]);
  });

  it("puts results added in any order in report order, each with its screenshot", () => {
    const inputs = [0, 1, 2, 3, 4, 5, 6].map((i) => frontendInput(i, { screenshot: null }));
    const builder = new ViewResultsBuilder("frontend", lowerTag);
    for (const i of [4, 0, 6, 2, 1, 5, 3]) builder.add(inputs[i]!);
    builder.screenshot(1002, "shots/2.png");
    builder.screenshot(1006, "shots/6.png");
    builder.screenshot(999, "shots/elsewhere.png");
    const results = builder.done();
    const inOrder = viewResultsOf(inputs, "frontend", lowerTag);
    for (let i = 0; i < inputs.length; i++) {
      const shot = i === 2 ? "shots/2.png" : i === 6 ? "shots/6.png" : null;
      expect(results.rowOf(i)).toEqual([...inOrder.rowOf(i).slice(0, -1), shot]);
      expect(results.entryOf(i)).toEqual(inOrder.entryOf(i));
      expect(results.tagsOf(i)).toEqual(inOrder.tagsOf(i));
    }
    expect(results.ofTests([50])).toEqual([0, 3, 6]);
    expect(results.bytes).toBeGreaterThan(inOrder.bytes);
  });

  it("searches name, title, scenario, TC id and tags, lower-cased", () => {
    const results = viewResultsOf([frontendInput(1)], "frontend", lowerTag);
    expect(results.searchTextOf(0)).toBe("tc51\nname 1\ntitle 1\n\n@smoke\nui");
  });
});

describe("RunViewCache", () => {
  it("is bounded by the bytes its views hold", () => {
    const cache = new RunViewCache(1000);
    const view = (version: string, bytes: number) =>
      ({ version, results: { length: 1, bytes } }) as unknown as KeptView;
    cache.set("frontend", "a", view("1", 600));
    cache.set("frontend", "b", view("1", 300));
    cache.set("frontend", "c", view("1", 300));
    expect(cache.get("frontend", "a", "1")).toBeUndefined();
    expect(cache.get("frontend", "b", "1")).toBeDefined();
    expect(cache.get("frontend", "c", "1")).toBeDefined();
  });
});
