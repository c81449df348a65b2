import { crc32, inflateSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { buildPlan, FULL_DEMO } from "./demo-plan.js";
import { screenshotBase64 } from "./demo-png.js";
import { DAILY_EXECUTOR, RERUN_EXECUTOR } from "./demo-vocabulary.js";

const NOW = new Date("2026-03-10T15:00:00Z");
const full = buildPlan({ ...FULL_DEMO, now: NOW });

/** What a plan says, without object identity, to compare two plans. */
function summary(plan: ReturnType<typeof buildPlan>) {
  return plan.runs.map((run) => ({
    key: run.key,
    executor: run.executor,
    results: run.results.map((r) => [r.test.id, r.attempts.map((a) => a.passed)]),
  }));
}

describe("buildPlan", () => {
  it("is the same for the same options, and differs with the seed", () => {
    const small = { days: 5, tests: 60, seed: 3, now: NOW };
    expect(summary(buildPlan(small))).toEqual(summary(buildPlan(small)));
    expect(summary(buildPlan({ ...small, seed: 4 }))).not.toEqual(summary(buildPlan(small)));
  });

  it("has about 1,500 distinct tests with stable TC ids in their areas' ranges", () => {
    const ids = full.tests.map((t) => t.id);
    expect(new Set(ids).size).toBe(1500);
    for (const test of full.tests) {
      expect(test.id - test.area.base).toBeGreaterThanOrEqual(0);
      expect(test.id - test.area.base).toBeLessThan(100);
    }
    const run = new Set(full.runs.flatMap((r) => r.results.map((x) => x.test.id)));
    expect(run.size).toBe(1500);
  });

  it("spans 60 days of the past, oldest run first, with one daily run per site and day", () => {
    const starts = full.runs.map((r) => r.start.getTime());
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
    expect(Math.max(...full.runs.map((r) => r.end.getTime()))).toBeLessThanOrEqual(NOW.getTime());
    const days = new Set(full.runs.map((r) => r.start.toISOString().slice(0, 10)));
    expect(days.size).toBe(60);
    const daily = full.runs.filter((r) => r.executor === DAILY_EXECUTOR);
    expect(daily.length).toBe(60 * 6);
    expect(full.runs.filter((r) => r.executor === RERUN_EXECUTOR).length).toBeGreaterThan(100);
    expect(new Set(full.runs.map((r) => r.key)).size).toBe(full.runs.length);
  });

  it("keeps screenshots bounded: one stepped test and five failures per UI run, none on reruns", () => {
    for (const run of full.runs) {
      expect(run.results.filter((r) => r.stepScreenshots).length).toBeLessThanOrEqual(1);
      expect(run.results.filter((r) => r.errorScreenshot).length).toBeLessThanOrEqual(5);
      if (run.kind === "rerun" || run.family !== "frontend") {
        expect(run.results.some((r) => r.stepScreenshots || r.errorScreenshot)).toBe(false);
      }
    }
  });
});

describe("screenshots", () => {
  it("are valid PNG files: signature, chunk CRCs and a full image in IDAT", () => {
    for (const error of [false, true]) {
      const png = Buffer.from(screenshotBase64("legacy", 2, error), "base64");
      expect(png.subarray(0, 8)).toEqual(Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]));
      const chunks = new Map<string, Buffer>();
      for (let at = 8; at < png.length;) {
        const length = png.readUInt32BE(at);
        const typed = png.subarray(at + 4, at + 8 + length);
        expect(png.readUInt32BE(at + 8 + length)).toBe(crc32(typed));
        chunks.set(typed.subarray(0, 4).toString("latin1"), typed.subarray(4));
        at += 12 + length;
      }
      const header = chunks.get("IHDR")!;
      const [width, height] = [header.readUInt32BE(0), header.readUInt32BE(4)];
      expect(inflateSync(chunks.get("IDAT")!).length).toBe(height * (width * 3 + 1));
      expect(chunks.has("IEND")).toBe(true);
      expect(png.length).toBeLessThan(4096);
    }
  });
});
