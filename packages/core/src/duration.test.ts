import { describe, expect, it } from "vitest";
import { formatDuration, formatTestTime, runWallClockMs } from "./duration.js";

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

describe("runWallClockMs", () => {
  it("is the time from the run's first start to its last end", () => {
    const run = { started_at: "2026-11-25T01:00:00.000Z", finished_at: "2026-11-25T02:08:56.903Z" };
    expect(runWallClockMs(run)).toBe(4_136_903);
    expect(formatDuration(runWallClockMs(run)!)).toBe("1h 8m 57s");
  });

  it("is unknown while the run is open or without timestamps", () => {
    expect(runWallClockMs({ started_at: "2026-11-25T01:00:00Z", finished_at: null })).toBeNull();
    expect(runWallClockMs({ started_at: null, finished_at: "2026-11-25T01:00:00Z" })).toBeNull();
    expect(
      runWallClockMs({ started_at: "2026-11-25T02:00:00Z", finished_at: "2026-11-25T01:00:00Z" }),
    ).toBeNull();
  });
});

describe("formatTestTime", () => {
  it("keeps tenths of a second under a minute", () => {
    expect(formatTestTime(1600)).toBe("1.6s");
    expect(formatTestTime(40)).toBe("0.0s");
    expect(formatTestTime(59_949)).toBe("59.9s");
    expect(formatTestTime(59_950)).toBe("1m");
    expect(formatTestTime(-1)).toBe("–");
  });
});
