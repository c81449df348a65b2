import { describe, expect, it } from "vitest";
import { formatDuration } from "./duration.js";

describe("formatDuration", () => {
  it("shows hours, minutes and seconds, leaving out zero units", () => {
    expect(formatDuration(3_723_000)).toBe("1h 2m 3s");
    expect(formatDuration(3_600_000)).toBe("1h");
    expect(formatDuration(61_000)).toBe("1m 1s");
  });

  it("rounds to the nearest second and shows 0s for nothing", () => {
    expect(formatDuration(0)).toBe("0s");
    expect(formatDuration(1_499)).toBe("1s");
    expect(formatDuration(1_500)).toBe("2s");
  });

  it("shows a dash for values that are not a duration", () => {
    expect(formatDuration(-1)).toBe("–");
    expect(formatDuration(Number.NaN)).toBe("–");
  });
});
