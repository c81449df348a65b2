import { describe, expect, it } from "vitest";
import {
  formatFailedIds,
  formatFailedSummary,
  summarizeFailures,
  UNKNOWN_TAG_GROUP,
} from "./failed-summary.js";

const MAJOR = ["@login", "@diary", "@visit"];

describe("summarizeFailures", () => {
  it("counts failed tests per major tag, most first, with the rest under Unknown", () => {
    const groups = summarizeFailures(
      [
        { test_id: 1, tags: ["@smoke", "@diary"] },
        { test_id: 2, tags: ["@diary"] },
        { test_id: 3, tags: ["@login"] },
        { test_id: 4, tags: ["@smoke"] },
        { test_id: 5, tags: [] },
        { test_id: 6, tags: ["@Diary"] },
      ],
      MAJOR,
    );
    expect(groups).toEqual([
      { tag: "@diary", count: 3, testIds: [1, 2, 6] },
      { tag: UNKNOWN_TAG_GROUP, count: 2, testIds: [4, 5] },
      { tag: "@login", count: 1, testIds: [3] },
    ]);
  });

  it("uses a test's first major tag, matching tags without '@' or in another case", () => {
    const groups = summarizeFailures([{ test_id: 7, tags: ["VISIT", "@login"] }], MAJOR);
    expect(groups).toEqual([{ tag: "@visit", count: 1, testIds: [7] }]);
  });

  it("breaks ties by catalogue order, Unknown after the major tags", () => {
    const groups = summarizeFailures(
      [
        { test_id: 1, tags: [] },
        { test_id: 2, tags: ["@visit"] },
        { test_id: 3, tags: ["@login"] },
      ],
      MAJOR,
    );
    expect(groups.map((g) => g.tag)).toEqual(["@login", "@visit", UNKNOWN_TAG_GROUP]);
  });

  it("counts a test once even when several of its attempts failed", () => {
    const groups = summarizeFailures(
      [
        { test_id: 1, tags: ["@login"] },
        { test_id: 1, tags: ["@login"] },
      ],
      MAJOR,
    );
    expect(groups).toEqual([{ tag: "@login", count: 1, testIds: [1] }]);
  });

  it("is empty when nothing failed", () => {
    expect(summarizeFailures([], MAJOR)).toEqual([]);
  });
});

describe("copy texts", () => {
  it("writes the summary one tag a line and a group's ids as TC ids", () => {
    const groups = [
      { tag: "@diary", count: 2, testIds: [1, 2] },
      { tag: UNKNOWN_TAG_GROUP, count: 1, testIds: [9] },
    ];
    expect(formatFailedSummary(groups)).toBe("@diary: 2\nUnknown: 1");
    expect(formatFailedIds(groups[0]!)).toBe("TC1, TC2");
  });
});
