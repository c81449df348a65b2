import type { DailyPoint } from "@assay/core";
import { describe, expect, it } from "vitest";
import { dailyValues } from "./DailyLineChart";

const day = (date: string, total: number): DailyPoint => ({
  date,
  total,
  passed: total - 1,
  failed: total > 0 ? 1 : 0,
  unstable: 0,
  skipped: 0,
  runs:
    total > 0
      ? [
          {
            key: `run-${date}`,
            name: date,
            executor: "daily robot executor",
            url: null,
            createdAt: `${date}T02:00:00.000Z`,
            total,
            passed: total - 1,
            failed: 1,
            unstable: 0,
            skipped: 0,
          },
        ]
      : [],
});

describe("the daily chart's series", () => {
  it("leaves a day without runs out of the line (today before the nightly run) instead of drawing zeros", () => {
    const days = [day("2026-11-28", 600), day("2026-11-29", 598), day("2026-11-30", 0)];
    expect(dailyValues(days, "total")).toEqual([600, 598, null]);
    expect(dailyValues(days, "failed")).toEqual([1, 1, null]);
  });
});
