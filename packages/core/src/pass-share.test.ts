import { describe, expect, it } from "vitest";
import { passShare } from "./pass-share.js";

describe("passShare", () => {
  it("computes percent = passed / total * 100 and gives the rest to red", () => {
    const bar = passShare(3, 4);
    expect(bar).toMatchObject({ total: 4, passed: 3, rest: 1 });
    expect(bar.passedShare).toEqual({ percent: 75, label: "75%" });
    expect(bar.restShare).toEqual({ percent: 25, label: "25%" });
  });

  it("rounds labels to one decimal but keeps the exact percent for the width", () => {
    const bar = passShare(2, 3);
    expect(bar.passedShare.percent).toBeCloseTo(66.6667, 3);
    expect(bar.passedShare.label).toBe("66.7%");
    expect(bar.restShare.label).toBe("33.3%");
  });

  it("labels a share only when it is over 4%", () => {
    // 1 of 25 is exactly 4%: not over, so no label.
    expect(passShare(1, 25).passedShare).toEqual({ percent: 4, label: null });
    expect(passShare(24, 25).restShare).toEqual({ percent: 4, label: null });
    // 1 of 24 is 4.17%: over, so labelled.
    expect(passShare(1, 24).passedShare.label).toBe("4.2%");
    expect(passShare(1, 100).passedShare.label).toBeNull();
    expect(passShare(1, 100).restShare.label).toBe("99%");
  });

  it("shows one full segment when everything passed or nothing did", () => {
    expect(passShare(5, 5).passedShare).toEqual({ percent: 100, label: "100%" });
    expect(passShare(5, 5).restShare).toEqual({ percent: 0, label: null });
    expect(passShare(0, 5).restShare).toEqual({ percent: 100, label: "100%" });
    expect(passShare(0, 5).passedShare).toEqual({ percent: 0, label: null });
  });

  it("has nothing to show without results, and never divides by zero", () => {
    const bar = passShare(0, 0);
    expect(bar).toMatchObject({ total: 0, passed: 0, rest: 0 });
    expect(bar.passedShare).toEqual({ percent: 0, label: null });
    expect(bar.restShare).toEqual({ percent: 0, label: null });
  });

  it("clamps impossible counts instead of drawing a bar over 100%", () => {
    expect(passShare(7, 5).passedShare.percent).toBe(100);
    expect(passShare(-1, 5).passedShare.percent).toBe(0);
  });
});
