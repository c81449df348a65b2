import { UNSTABLE_TAG } from "@assay/core";
import type { DemoTest } from "./demo-tests.js";

/*
 * The dynamic tags a QA team keeps on the Test Reports screen, and which demo tests are in each:
 * '@unstable' (the flaky tests someone noticed) and a few working lists of different sizes.
 */

const SLOW_MS = { ui: 75_000, api: 2_000 };

export const DEMO_TAGS: readonly { name: string; holds: (test: DemoTest) => boolean }[] = [
  { name: UNSTABLE_TAG, holds: (test) => test.unstable },
  // Long scenarios the team runs last or splits up: about a fifth of the tests.
  {
    name: "@slow",
    holds: (test) => test.durationMs >= (test.suite === "api" ? SLOW_MS.api : SLOW_MS.ui),
  },
  // Failures someone must look at: new ones and those of the last few days.
  {
    name: "@needs-triage",
    holds: (test) => test.fate === "new" || test.fate === "recent" || test.fate === "late",
  },
  // Failing every day for a known reason (a defect or a ticket), waiting on a fix.
  { name: "@known-issue", holds: (test) => test.fate === "steady" },
  // Pending on test data, a build or a feature flag.
  { name: "@blocked", holds: (test) => test.fate === "pending" },
];

/** The demo's dynamic tags, with the tests each holds. */
export function demoTagging(tests: readonly DemoTest[]): { name: string; tests: DemoTest[] }[] {
  return DEMO_TAGS.map(({ name, holds }) => ({ name, tests: tests.filter(holds) }));
}
