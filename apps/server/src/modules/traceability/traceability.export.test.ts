import { describe, expect, it } from "vitest";
import { matrixCsv } from "./traceability.export.js";

describe("matrixCsv", () => {
  it("quotes commas, quotes and line breaks, and defuses spreadsheet formulas", () => {
    const csv = matrixCsv(
      {
        source: null,
        rows: [
          {
            rmsDetail: {
              id: 1,
              rms: "RMS-1",
              summary: '=HYPERLINK("x"), and more',
              epic: "-1",
              type: "Story",
              note: "line 1\nline 2",
              noTestNeeded: 0,
            },
            testRuns: [],
            linkedBugs: [],
          },
        ],
      },
      new Date("2026-11-26T10:00:00Z"),
    );
    const [, row] = csv.split("\r\n");
    expect(row).toBe(
      `RMS-1,"'=HYPERLINK(""x""), and more",'-1,Story,0,"line 1\nline 2",0,0,0,0,,,none,2026-11-26T10:00:00.000Z`,
    );
  });
});
