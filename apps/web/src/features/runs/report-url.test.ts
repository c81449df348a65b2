import { describe, expect, it } from "vitest";
import { DEFAULT_HIDDEN, readReportState, reportHref, type ReportState } from "./report-url";

const read = (path: string) => {
  const url = new URL(path, "http://assay.test");
  const [, , key, testKey] = url.pathname.split("/").map(decodeURIComponent);
  return readReportState({ key, test_key: testKey }, url.searchParams);
};

describe("readReportState", () => {
  it("reads /test_runs as the Frontend tab, page 1 of 15, no dialog", () => {
    expect(read("/test_runs")).toEqual({
      tab: "frontend",
      page: 1,
      size: 15,
      dialog: null,
      filters: { hidden: DEFAULT_HIDDEN, tags: [], failure: null, group: null, defect: null },
      list: {},
    });
  });

  it("hides passed, skipped and unstable by default, so a run opens on its failures", () => {
    expect([...read("/test_runs/r1").filters.hidden].sort()).toEqual([
      "passed",
      "skipped",
      "unstable",
    ]);
  });

  it("opens the Frontend dialog for a key, the detail for a test key, Backend for be=1", () => {
    expect(read("/test_runs/r1").dialog).toEqual({ kind: "frontend", key: "r1", testKey: null });
    expect(read("/test_runs/r1/t%231").dialog).toEqual({
      kind: "frontend",
      key: "r1",
      testKey: "t#1",
    });
    const backend = read("/test_runs/r1/t2?be=1");
    expect(backend.dialog).toEqual({ kind: "backend", key: "r1", testKey: "t2" });
    expect(backend.tab).toBe("backend");
    expect(read("/test_runs/l1?load=1")).toMatchObject({
      tab: "load",
      dialog: { kind: "load", key: "l1" },
    });
  });

  it("falls back to defaults for unknown values", () => {
    const state = read("/test_runs?tab=nope&page=-2&size=16&hide=bogus&failures=x");
    expect(state).toMatchObject({ tab: "frontend", page: 1, size: 15, filters: { failure: null } });
    expect([...state.filters.hidden]).toEqual([]);
  });
});

describe("reportHref", () => {
  const base: ReportState = read("/test_runs");

  it("leaves defaults out", () => {
    expect(reportHref(base)).toBe("/test_runs");
    expect(reportHref({ ...base, dialog: { kind: "frontend", key: "r 1", testKey: null } })).toBe(
      "/test_runs/r%201",
    );
  });

  it("round-trips every part of the state", () => {
    const paths = [
      "/test_runs?tab=load&page=3&size=30",
      "/test_runs/r1/t1?hide=&failures=new_failure",
      "/test_runs/r1?hide=passed%2Cfailed&tag=%40smoke&tag=a%2Cb",
      "/test_runs/r1/t1?be=1",
      "/test_runs/r1?tab=frontend&be=1",
      "/test_runs/l1?load=1&page=2",
    ];
    for (const path of paths) {
      expect(read(reportHref(read(path)))).toEqual(read(path));
    }
    expect(read("/test_runs/r1?tag=%40smoke&tag=a%2Cb").filters.tags).toEqual(["@smoke", "a,b"]);
  });
});
