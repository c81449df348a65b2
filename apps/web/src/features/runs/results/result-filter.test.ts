import { describe, expect, it } from "vitest";
import { dynamicTagsOf, idTagMatcher, tagTestsOf } from "./result-filter";

describe("idTagMatcher", () => {
  it("knows the tags that only carry a test id, which the cards do not show as chips", () => {
    const isIdTag = idTagMatcher("TC(\\d+)");
    expect(["@TC12", "tc7", " @TC1 "].map(isIdTag)).toEqual([true, true, true]);
    expect(["@TC12x", "@smoke", "@login-TC1"].map(isIdTag)).toEqual([false, false, false]);
    expect(idTagMatcher(undefined)("@TC9")).toBe(false);
  });
});

describe("dynamicTagsOf", () => {
  it("names the dynamic tags a test is in, lower-cased and sorted", () => {
    const tagTests = tagTestsOf({
      byTag: {
        Regression: { id: 1, tests: [], test_ids: [5, 6] },
        "@nightly": { id: 2, tests: [], test_ids: [5] },
      },
      options: [],
    });
    const of = dynamicTagsOf(tagTests);
    expect(of(5)).toEqual(["@nightly", "regression"]);
    expect(of(6)).toEqual(["regression"]);
    expect(of(7)).toEqual([]);
  });
});
