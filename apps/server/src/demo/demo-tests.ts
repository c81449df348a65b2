import { Rng } from "./prng.js";
import { rmsTag } from "./demo-requirements.js";
import {
  API_CHECKS,
  API_FAILURES,
  AREAS,
  PATIENT_ROLES,
  PENDING_REASONS,
  UI_FAILURES,
  UI_ROLES,
  type Area,
  type Suite,
} from "./demo-vocabulary.js";

/**
 * What happens to a test over the demo's days:
 * - stable: passes, with a rare one-off failure;
 * - flaky: fails every few days on timing, passes on a retry; most are in '@unstable';
 * - steady: fails every day since `failSince` (often a known NXL issue);
 * - recent: fails on each of the last three or four days ("Failed for three days");
 * - new: fails only on the last day ("New Failure");
 * - late: passes in the daily runs and fails in a person's run after the last daily run, so it
 *   is a new failure in the plain history too;
 * - pending: fails with "Pending reason == ..." since `failSince` (shown as skipped);
 * - fixed: failed for a few days in between, then passed again; the first of each suite fails
 *   again on the last day with the same message (`relapseOn`): triage's "regression".
 */
export type Fate = "stable" | "flaky" | "steady" | "recent" | "new" | "late" | "pending" | "fixed";

export interface DemoTest {
  id: number;
  suite: Suite;
  area: Area;
  /** Scenario (UI) or check (API), without the TC id. */
  scenario: string;
  file: string;
  /** Tags without the TC id tag. */
  tags: string[];
  fate: Fate;
  /** First failing day of steady, recent, new, pending and fixed tests. */
  failSince: number;
  /** First passing day again of a fixed test. */
  fixedAt: number;
  /** The day a fixed test fails again, as before (a regression); `days`: never. */
  relapseOn: number;
  /** The message of its failures (flaky tests draw theirs per failure). */
  message: string;
  /** In the '@unstable' dynamic tag. */
  unstable: boolean;
  /** Also run by the smaller daily runs on the stage sites. */
  onStage: boolean;
  /** Typical duration in ms. */
  durationMs: number;
  /** API tests: the request under test. */
  request?: { method: string; path: string; status: number };
}

/** A fixed test this many days stable is still in '@unstable' (above the 30 results of a window). */
const STABLE_AGAIN_DAYS = 35;

const UI_QUALIFIERS = ["", " on a small screen", " in a translated study", " on a slow network"];
const API_QUALIFIERS = ["", " (v1 compatibility)", " as a sponsor user", " in the EU region"];

/** Special fates per suite of n tests: at least one of each, so a small plan shows them all. */
function quotas(suite: Suite, n: number): [Fate, number][] {
  const at = (share: number, min = 1) => Math.max(min, Math.round(n * share));
  return [
    ["flaky", at(0.05, 2)],
    ["steady", at(0.02)],
    ["recent", at(0.012)],
    ["new", at(0.008)],
    ["late", suite === "api" ? 0 : at(0.005)],
    ["pending", at(0.02)],
    ["fixed", at(0.015)],
  ];
}

/** Splits n tests over a suite's areas as evenly as the areas' id ranges allow. */
function perArea(n: number, areas: number): number[] {
  return Array.from({ length: areas }, (_, i) => Math.floor(n / areas) + (i < n % areas ? 1 : 0));
}

function uiScenario(suite: Suite, area: Area, k: number): string {
  const roles =
    suite === "nextGen" && !area.tags.includes("@admin") && !area.tags.includes("@reports")
      ? PATIENT_ROLES
      : UI_ROLES;
  const per = area.actions.length * roles.length;
  const action = area.actions[k % area.actions.length];
  const role = roles[Math.floor(k / area.actions.length) % roles.length];
  const qualifier = UI_QUALIFIERS[Math.floor(k / per) % UI_QUALIFIERS.length] ?? "";
  return `${role} ${action}${qualifier}`;
}

function apiCheck(area: Area, k: number) {
  const check = API_CHECKS[k % API_CHECKS.length]!;
  const resource = area.actions[Math.floor(k / API_CHECKS.length) % area.actions.length]!;
  const per = API_CHECKS.length * area.actions.length;
  const qualifier = API_QUALIFIERS[Math.floor(k / per) % API_QUALIFIERS.length] ?? "";
  const path = `/api/v2${check.path.replace("{resource}", resource)}`;
  return {
    scenario: `${check.method} ${path} ${check.check.replace("{resource}", resource)}${qualifier}`,
    request: { method: check.method, path, status: check.status },
  };
}

/** Fills a message's {ticket} with an NXL key of the test, so a known issue keeps its ticket. */
export function withTicket(message: string, rng: Rng): string {
  return message.replace("{ticket}", `NXL-${rng.int(1200, 9899)}`);
}

function failureMessage(suite: Suite, fate: Fate, rng: Rng): string {
  if (fate === "pending") return withTicket(rng.pick(PENDING_REASONS), rng);
  const pool = suite === "api" ? API_FAILURES : UI_FAILURES;
  const message = withTicket(rng.pick(pool), rng);
  // About half the steady failures are already tracked: "Known issue NXL-1234".
  const known = fate === "steady" && !message.includes("NXL-") && rng.chance(0.5);
  return known ? `${message} (Known issue NXL-${rng.int(1200, 9899)})` : message;
}

function failSinceOf(fate: Fate, days: number, rng: Rng): number {
  const last = days - 1;
  switch (fate) {
    case "steady":
      return rng.int(0, Math.max(0, days - 8));
    case "pending":
      return rng.int(0, Math.max(0, days - 5));
    case "recent":
      return Math.max(0, last - 2 - rng.int(0, 1));
    case "new":
      return last;
    case "fixed":
      return Math.min(rng.int(0, Math.max(0, Math.floor(days / 2))), Math.max(0, last - 1));
    default:
      return days;
  }
}

/**
 * The demo's tests: `total` split about 40% legacy UI, 33% NextGen UI and 27% API, each with a
 * stable TC id from its area's range, and a fate drawn so that every fate occurs in each suite.
 */
export function buildTests(total: number, days: number, seed: number): DemoTest[] {
  const rng = new Rng(seed);
  const legacy = Math.round(total * 0.4);
  const nextGen = Math.round(total * 0.33);
  const sizes: Record<Suite, number> = { legacy, nextGen, api: total - legacy - nextGen };
  const tests: DemoTest[] = [];
  for (const suite of ["legacy", "nextGen", "api"] as const) {
    const areas = AREAS[suite];
    const suiteTests: DemoTest[] = [];
    perArea(sizes[suite], areas.length).forEach((count, a) => {
      const area = areas[a]!;
      for (let k = 0; k < Math.min(count, 99); k++) {
        const api = suite === "api" ? apiCheck(area, k) : undefined;
        const scenario = api?.scenario ?? uiScenario(suite, area, k);
        const extension = suite === "api" ? "spec.ts" : "feature";
        suiteTests.push({
          id: area.base + k,
          suite,
          area,
          scenario,
          file: `${suite === "api" ? "tests" : "features"}/${suite}/${area.folder}/${area.folder}-${Math.floor(k / 12) + 1}.${extension}`,
          tags: [
            ...area.tags,
            ...(k % 10 === 0 ? ["@smoke"] : []),
            // NextGen UI tests name the requirement they cover (the Traceability Matrix).
            ...(suite === "nextGen" ? [rmsTag(area, k)] : []),
          ],
          fate: "stable",
          failSince: days,
          fixedAt: days,
          relapseOn: days,
          message: "",
          unstable: false,
          onStage: k % 10 === 0 || rng.chance(0.2),
          durationMs: suite === "api" ? rng.int(150, 2500) : rng.int(15_000, 90_000),
          ...(api ? { request: api.request } : {}),
        });
      }
    });
    let next = 0;
    const order = rng.shuffle(suiteTests);
    for (const [fate, count] of quotas(suite, suiteTests.length)) {
      for (let i = 0; i < count && next < order.length; i++, next++) {
        const test = order[next]!;
        test.fate = fate;
        test.failSince = failSinceOf(fate, days, rng);
        test.fixedAt = fate === "fixed" ? Math.min(days - 1, test.failSince + rng.int(2, 6)) : days;
        test.message = failureMessage(suite, fate, rng);
        // Two thirds of the flaky tests have been noticed and put in '@unstable'; so has a test
        // fixed five weeks ago or more, still tagged (Flaky Tests suggests untagging it).
        test.unstable =
          (fate === "flaky" && (i === 0 || rng.chance(0.66))) ||
          (fate === "fixed" && test.fixedAt <= days - STABLE_AGAIN_DAYS);
        // Fixed weeks ago and back last night: drawn from no random number, so the rest of the
        // demo stays as it was.
        if (fate === "fixed" && i === 0 && test.fixedAt <= days - 5) test.relapseOn = days - 1;
      }
    }
    tests.push(...suiteTests);
  }
  return tests;
}
