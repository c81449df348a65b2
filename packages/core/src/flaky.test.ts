import { describe, expect, it } from "vitest";
import {
  flakyFigures,
  flippedAt,
  isFlaky,
  isSettled,
  nextWindow,
  wilsonInterval,
} from "./flaky.js";

describe("Wilson interval", () => {
  it("puts one failure in 20 between about 1% and 24% (triage.md's example)", () => {
    const { low, high } = wilsonInterval(1, 20);
    expect(low).toBeCloseTo(0.0089, 3);
    expect(high).toBeCloseTo(0.2361, 3);
  });
  it("stays inside 0..1 at the ends", () => {
    expect(wilsonInterval(0, 30).low).toBe(0);
    expect(wilsonInterval(30, 30).high).toBe(1);
    expect(wilsonInterval(0, 0)).toEqual({ low: 0, high: 1 });
  });
});

describe("flip rate", () => {
  it("counts a status unlike the one before as a flip, over n - 1 steps", () => {
    expect(flakyFigures("pfpfp", 0)).toMatchObject({ flips: 4, flipRate: 1, failures: 2 });
    expect(flakyFigures("ppppf", 0)).toMatchObject({ flips: 1, flipRate: 0.25, lastFlip: 4 });
    expect(flakyFigures("ffff", 0)).toMatchObject({ flips: 0, flipRate: 0, failureRate: 1 });
  });
  it("counts a pass on retry as a flip inside its run, and as a retry passed", () => {
    const figures = flakyFigures("pprp", 0);
    expect(figures).toMatchObject({ flips: 1, retriesPassed: 1, failures: 0, lastFlip: 2 });
    expect(flippedAt("r", 0)).toBe(true);
    expect(flakyFigures("r", 0).flipRate).toBe(1);
  });
  it("weighs the newest flips most when decay > 0 and equals the flip rate at 0", () => {
    const oldFlips = flakyFigures("pfpppppppp", 0.3);
    const newFlips = flakyFigures("ppppppppfp", 0.3);
    expect(oldFlips.flipRate).toBe(newFlips.flipRate);
    expect(newFlips.weightedFlipRate).toBeGreaterThan(0.5);
    expect(oldFlips.weightedFlipRate).toBeLessThan(0.15);
    expect(flakyFigures("pfpppppppp", 0).weightedFlipRate).toBeCloseTo(oldFlips.flipRate, 10);
  });
  it("is zero for a window that never flipped", () => {
    expect(flakyFigures("pppp", 0.1)).toMatchObject({ weightedFlipRate: 0, lastFlip: -1 });
    expect(flakyFigures("", 0.1)).toMatchObject({ results: 0, flipRate: 0, failureRate: 0 });
  });
});

describe("window", () => {
  it("appends a run's outcome and keeps the newest N", () => {
    expect(nextWindow({ outcomes: "pf", runIds: [1, 2] }, "p", 3, 3)).toEqual({
      outcomes: "pfp",
      runIds: [1, 2, 3],
    });
    expect(nextWindow({ outcomes: "pfp", runIds: [1, 2, 3] }, "f", 4, 3)).toEqual({
      outcomes: "fpf",
      runIds: [2, 3, 4],
    });
  });
  it("replaces the outcome of a run it already holds (a run read again)", () => {
    expect(nextWindow({ outcomes: "pfp", runIds: [1, 2, 3] }, "p", 2, 3)).toEqual({
      outcomes: "ppp",
      runIds: [1, 2, 3],
    });
  });
  it("is settled when full of passes", () => {
    expect(isSettled("ppp", 3)).toBe(true);
    expect(isSettled("pp", 3)).toBe(false);
    expect(isSettled("ppr", 3)).toBe(false);
  });
});

describe("flaky", () => {
  const rule = { threshold: 0.1, minResults: 5 };

  it("is not said of a window of too few results, whatever its score", () => {
    // Two results that differ: flip rate 1, score 1, and still only one flip seen.
    const two = flakyFigures("pf", 0.1);
    expect(two.weightedFlipRate).toBe(1);
    expect(isFlaky({ score: two.weightedFlipRate, results: two.results }, rule)).toBe(false);
    const five = flakyFigures("pfpfp", 0.1);
    expect(isFlaky({ score: five.weightedFlipRate, results: five.results }, rule)).toBe(true);
  });

  it("needs the score to reach the threshold, and a score above 0", () => {
    expect(isFlaky({ score: 0.09, results: 30 }, rule)).toBe(false);
    expect(isFlaky({ score: 0.1, results: 30 }, rule)).toBe(true);
    expect(isFlaky({ score: 0, results: 30 }, { threshold: 0, minResults: 5 })).toBe(false);
  });
});
