import { describe, expect, it } from "vitest";
import { groupScreenshotsWithSteps } from "./print-groups.js";

const steps = ["open login", "type user", "submit", "see home", "open diary"];
const shot = (id: number, step_index: number | null) => ({ id, step_index });

function summarize(
  result: ReturnType<
    typeof groupScreenshotsWithSteps<{ id: number; step_index: number | null }, string>
  >,
) {
  return {
    groups: result.groups.map((g) => [g.screenshot.id, g.steps.map((s) => s.index)]),
    remaining: result.remaining.map((s) => s.index),
  };
}

describe("groupScreenshotsWithSteps", () => {
  it("gives each screenshot the steps after the previous screenshot up to its own step", () => {
    const result = groupScreenshotsWithSteps(steps, [shot(1, 0), shot(2, 2), shot(3, 3)]);
    expect(summarize(result)).toEqual({
      groups: [
        [1, [0]],
        [2, [1, 2]],
        [3, [3]],
      ],
      remaining: [4],
    });
    expect(result.groups[1]?.steps.map((s) => s.step)).toEqual(["type user", "submit"]);
  });

  it("gives a second screenshot of the same step no steps, so each step shows once", () => {
    const result = groupScreenshotsWithSteps(steps, [shot(1, 2), shot(2, 2), shot(3, 1)]);
    expect(summarize(result)).toEqual({
      groups: [
        [1, [0, 1, 2]],
        [2, []],
        [3, []],
      ],
      remaining: [3, 4],
    });
  });

  it("gives a screenshot without a step index no steps", () => {
    const result = groupScreenshotsWithSteps(steps, [shot(1, null), shot(2, 1)]);
    expect(summarize(result)).toEqual({
      groups: [
        [1, []],
        [2, [0, 1]],
      ],
      remaining: [2, 3, 4],
    });
  });

  it("lets an index past the last step take the rest", () => {
    const result = groupScreenshotsWithSteps(steps, [shot(1, 99)]);
    expect(summarize(result)).toEqual({ groups: [[1, [0, 1, 2, 3, 4]]], remaining: [] });
  });

  it("has no groups without screenshots, and every step remaining", () => {
    expect(summarize(groupScreenshotsWithSteps(steps, []))).toEqual({
      groups: [],
      remaining: [0, 1, 2, 3, 4],
    });
    expect(summarize(groupScreenshotsWithSteps([], [shot(1, 0)]))).toEqual({
      groups: [[1, []]],
      remaining: [],
    });
  });
});
