import { describe, expect, it } from "vitest";
import {
  buildFailedResult,
  buildFrontendResult,
  buildHistory,
} from "../../../test/frontend-run-fixtures";
import { DEFAULT_FILTERS } from "../report-url";
import {
  countResults,
  filterResults,
  finalResults,
  idTagMatcher,
  tagOptions,
  tagTestsOf,
} from "./result-filter";

const passed = buildFrontendResult({ test_id: 1, tags: ["@Login"] });
const failed = buildFailedResult({ test_id: 2, tags: ["@smoke"] });
const unstable = buildFailedResult({ test_id: 3 }, "unstable");
const skipped = buildFailedResult({ test_id: 4 }, "skipped");
const retried = buildFailedResult({ test_id: 1, is_final: false });
const all = [retried, passed, failed, unstable, skipped];
const none = { tagTests: new Map(), history: undefined };
const ids = (results: { test_id: number }[]) => results.map((r) => r.test_id);

describe("finalResults and countResults", () => {
  it("counts each test's last attempt once, by the status it shows", () => {
    const finals = finalResults(all);
    expect(ids(finals)).toEqual([1, 2, 3, 4]);
    expect(countResults(finals)).toEqual({
      total: 4,
      passed: 1,
      failed: 1,
      skipped: 1,
      unstable: 1,
    });
  });
});

describe("filterResults", () => {
  const finals = finalResults(all);

  it("shows only failures with the default Hide switches", () => {
    expect(ids(filterResults(finals, DEFAULT_FILTERS, none))).toEqual([2]);
  });

  it("leaves out exactly the statuses whose Hide switch is on", () => {
    const show = (hidden: string[]) =>
      ids(filterResults(finals, { ...DEFAULT_FILTERS, hidden: new Set(hidden) as never }, none));
    expect(show([])).toEqual([1, 2, 3, 4]);
    expect(show(["failed"])).toEqual([1, 3, 4]);
    expect(show(["passed", "failed", "skipped", "unstable"])).toEqual([]);
  });

  it("keeps results carrying any chosen tag, from the report or a dynamic tag", () => {
    const tagTests = tagTestsOf({
      byTag: { regression: { id: 1, tests: [], test_ids: [3] } },
      options: [{ text: "regression", value: 1 }],
    });
    const filters = { ...DEFAULT_FILTERS, hidden: new Set<never>() };
    const withTags = (tags: string[]) =>
      ids(filterResults(finals, { ...filters, tags }, { tagTests, history: undefined }));
    expect(withTags(["@login"])).toEqual([1]);
    expect(withTags(["@login", "regression"])).toEqual([1, 3]);
    expect(withTags(["nothing"])).toEqual([]);
    expect(tagOptions(finals, tagTests)).toEqual(["@login", "@smoke", "regression"]);
  });

  it("applies the failure filter to the recent history, and matches nothing without it", () => {
    const filters = { ...DEFAULT_FILTERS, hidden: new Set<never>() };
    const history = {
      "1": buildHistory([["r", "passed"]]),
      "2": buildHistory([
        ["r", "failed"],
        ["q", "passed"],
      ]),
      "3": buildHistory([
        ["r", "failed"],
        ["q", "failed"],
        ["p", "failed"],
      ]),
    };
    const run = (failure: "new_failure" | "failed_three_days", known = history) =>
      ids(filterResults(finals, { ...filters, failure }, { tagTests: new Map(), history: known }));
    expect(run("new_failure")).toEqual([2]);
    expect(run("failed_three_days")).toEqual([3]);
    expect(ids(filterResults(finals, { ...filters, failure: "new_failure" }, none))).toEqual([]);
  });
});

describe("idTagMatcher", () => {
  it("knows the tags that only carry a test id, which the filter leaves out", () => {
    const isIdTag = idTagMatcher("TC(\\d+)");
    expect(["@TC12", "tc7", " @TC1 "].map(isIdTag)).toEqual([true, true, true]);
    expect(["@TC12x", "@smoke", "@login-TC1"].map(isIdTag)).toEqual([false, false, false]);
    const tagged = [buildFrontendResult({ tags: ["@TC9", "@Smoke"] })];
    expect(tagOptions(tagged, new Map(), isIdTag)).toEqual(["@smoke"]);
    expect(idTagMatcher(undefined)("@TC9")).toBe(false);
  });
});
