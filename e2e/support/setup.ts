import { afterEach, expect } from "vitest";
import { takePageProblems } from "./browser.js";

// A journey fails on any console error or page error of the pages it drove (browser.ts watches
// every page launchBrowser's browser opens), in the test during which it was logged.
afterEach(() => {
  expect(takePageProblems(), "console errors or page errors in the browser").toEqual([]);
});
