import { defaultRunName } from "../modules/ingest/ingest.service.js";
import { Rng } from "./prng.js";
import { attemptsOf, isPending, retryAttempt, type Occasion } from "./demo-outcomes.js";
import { buildTests, type DemoTest } from "./demo-tests.js";
import { loadRunsOf } from "./demo-load-plan.js";
import type { PlannedRun, RunFormat } from "./demo-run-types.js";
import { DAY, MINUTE, runKey, schedule, withScreenshots } from "./demo-schedule.js";
import {
  CHINA_EXECUTOR,
  DAILY_EXECUTOR,
  HUMANS,
  RERUN_EXECUTOR,
  type Suite,
} from "./demo-vocabulary.js";

/*
 * The deterministic plan of the demo: every run of the last `days` days, with its time, executor,
 * report format and the attempts of each of its tests. demo-reports.ts turns a planned run into
 * the files a CI job would upload; demo-loader.ts posts them.
 */

export interface DemoPlanOptions {
  /** Days of history; the last is the most recent day whose runs are all over. */
  days: number;
  /** Distinct tests over all suites. */
  tests: number;
  seed: number;
  now: Date;
}

/** What `npm start` loads: 60 days, about 1,500 tests. */
export const FULL_DEMO = { days: 60, tests: 1500, seed: 20_260_101 } as const;

export interface DemoPlan {
  tests: DemoTest[];
  /** Oldest first, the order they are loaded in. */
  runs: PlannedRun[];
}

// The last day is one whose every run (the latest start at about 11:00 UTC) is over by now.
const LAST_RUN_END_MINUTES = 13 * 60;

/** One of the daily robot's runs: its suite, site, and start in minutes after midnight UTC. */
export interface Target {
  suite: Suite;
  site: string;
  stage: boolean;
  format: RunFormat;
  minute: number;
}

const target = (suite: Suite, site: string, stage: boolean, format: RunFormat, minute: number) =>
  ({ suite, site, stage, format, minute }) satisfies Target;

/** The daily robot's runs, at minutes after midnight UTC: dev first, then the stage subsets. */
export const DAILY_TARGETS: readonly Target[] = [
  target("legacy", "dev.legacy.example.com", false, "cucumber", 60),
  target("nextGen", "dev1.nextgen.example.com", false, "cucumber", 65),
  target("api", "dev1", false, "live", 120),
  target("legacy", "stage.legacy.example.com", true, "cucumber", 210),
  target("nextGen", "stage.nextgen.example.com", true, "junit", 215),
  target("api", "stage", true, "junit", 240),
];

const apiBaseUrl = (env: string) => `https://${env}.api.nextgen.example.com`;

class Planner {
  readonly runs: PlannedRun[] = [];
  readonly lastDay: number;
  private readonly firstDayStart: number;

  constructor(
    readonly options: DemoPlanOptions,
    readonly tests: DemoTest[],
  ) {
    this.lastDay = options.days - 1;
    const lastStart = new Date(options.now.getTime() - LAST_RUN_END_MINUTES * MINUTE);
    lastStart.setUTCHours(0, 0, 0, 0);
    this.firstDayStart = lastStart.getTime() - this.lastDay * DAY;
  }

  at(day: number, minute: number): Date {
    return new Date(this.firstDayStart + day * DAY + minute * MINUTE);
  }

  rng(...parts: (string | number)[]): Rng {
    return Rng.for(this.options.seed, ...parts);
  }

  suiteTests(suite: Suite): DemoTest[] {
    return this.tests.filter((t) => t.suite === suite);
  }

  /** Adds a test run; returns it so a rerun can follow. */
  addRun(
    fields: Omit<PlannedRun, "key" | "name" | "end" | "results" | "family" | "commit">,
    day: number,
    tests: readonly DemoTest[],
    latePersonRun = false,
  ): PlannedRun | undefined {
    if (tests.length === 0) return undefined;
    const rng = this.rng(fields.kind, fields.suite ?? "", fields.site ?? "", day, fields.executor);
    const occasion: Occasion = { day, latePersonRun, rng };
    const retries = fields.format !== "cucumber";
    const planned = tests.map((test) => ({ test, attempts: attemptsOf(test, occasion, retries) }));
    const lanes = Math.max(1, Math.min(8, Math.ceil(tests.length / 60)));
    const scheduled = schedule(fields.start, lanes, planned);
    const results = withScreenshots(scheduled.results, rng, fields.suite !== "api");
    const family = fields.suite === "api" ? "backend" : "frontend";
    const run: PlannedRun = {
      ...fields,
      family,
      key: runKey(family, fields.start, rng),
      name: defaultRunName(fields.start),
      end: scheduled.end,
      commit: this.rng("commit", fields.suite ?? "", fields.branch, day).hex(10),
      results,
    };
    this.runs.push(run);
    return run;
  }

  /** The rerun-failed executor reruns the failed (not pending) tests of a daily UI run. */
  addRerun(daily: PlannedRun, day: number): void {
    const failed = daily.results.filter((r) => {
      const last = r.attempts[r.attempts.length - 1]!;
      return !last.passed && !isPending(last);
    });
    if (failed.length === 0) return;
    const start = new Date(daily.end.getTime() + 15 * MINUTE);
    const rng = this.rng("rerun", daily.key);
    const occasion: Occasion = { day, latePersonRun: false, rng };
    const planned = failed.map((r) => ({
      test: r.test,
      attempts: [
        retryAttempt(r.test, r.attempts[r.attempts.length - 1]!, occasion, r.attempts.length),
      ],
    }));
    const { results, end } = schedule(start, 2, planned);
    this.runs.push({
      ...daily,
      key: runKey("frontend", start, rng),
      kind: "rerun",
      name: defaultRunName(start),
      start,
      end,
      executor: RERUN_EXECUTOR,
      results: results.map((r) => ({ ...r, stepScreenshots: false, errorScreenshot: false })),
    });
  }
}

function planDay(p: Planner, day: number): void {
  for (const target of DAILY_TARGETS) {
    const tests = p.suiteTests(target.suite).filter((t) => !target.stage || t.onStage);
    const api = target.suite === "api";
    const run = p.addRun(
      {
        kind: "daily",
        format: target.format,
        suite: target.suite,
        start: p.at(day, target.minute),
        executor: DAILY_EXECUTOR,
        branch: "master",
        chinaRegion: false,
        ...(api ? { env: target.site, baseurl: apiBaseUrl(target.site) } : { site: target.site }),
      },
      day,
      tests,
    );
    if (run && !api) p.addRerun(run, day);
  }
  const rng = p.rng("people", day);
  // China-region NextGen runs on stage, once a week, the smoke, login and eConsent tests.
  if ((p.lastDay - day) % 7 === 1) {
    const tests = p
      .suiteTests("nextGen")
      .filter((t) => t.tags.some((tag) => ["@smoke", "@login", "@econsent"].includes(tag)));
    p.addRun(
      {
        kind: "china",
        format: "cucumber",
        suite: "nextGen",
        start: p.at(day, 7 * 60),
        executor: CHINA_EXECUTOR,
        site: "stage.nextgen.example.com",
        branch: "master",
        chinaRegion: true,
      },
      day,
      tests,
    );
  }
  if (day < p.lastDay && rng.chance(0.25)) personRun(p, day, rng, rng.pick(["legacy", "nextGen"]));
  if (day < p.lastDay && rng.chance(0.08)) personRun(p, day, rng, "api");
  if (day === p.lastDay) {
    personRun(p, day, rng, "legacy", true);
    personRun(p, day, rng, "nextGen", true);
  }
}

/** A person runs one area's tests on their branch (on the last day: where "late" tests fail). */
function personRun(p: Planner, day: number, rng: Rng, suite: Suite, late = false): void {
  const all = p.suiteTests(suite);
  const lateTests = late ? all.filter((t) => t.fate === "late") : [];
  const area = lateTests[0]?.area ?? rng.pick(all).area;
  const tests = all.filter((t) => t.area === area || lateTests.includes(t));
  const ticket = rng.int(1200, 9899);
  const site = suite === "legacy" ? "stage.legacy.example.com" : "stage.nextgen.example.com";
  p.addRun(
    {
      kind: "person",
      format: suite === "api" ? "live" : "cucumber",
      suite,
      start: p.at(day, (late ? 10 * 60 : 9 * 60) + (suite === "nextGen" ? 30 : rng.int(0, 50))),
      executor: rng.pick(HUMANS),
      branch: rng.chance(0.5) ? "release/7.4" : `feature/NXL-${ticket}`,
      chinaRegion: false,
      ...(suite === "api" ? { env: "stage", baseurl: apiBaseUrl("stage") } : { site }),
    },
    day,
    tests,
    late,
  );
}

/**
 * The whole demo, the same for the same options: tests and fates, then day by day the daily
 * runs of each suite and site (with the rerun of their failures), China-region runs, people's
 * runs and load runs.
 */
export function buildPlan(options: DemoPlanOptions): DemoPlan {
  const tests = buildTests(options.tests, options.days, options.seed);
  const planner = new Planner(options, tests);
  for (let day = 0; day < options.days; day++) planDay(planner, day);
  const runs = [...planner.runs, ...loadRunsOf(planner)];
  runs.sort((a, b) => a.start.getTime() - b.start.getTime() || a.key.localeCompare(b.key));
  return { tests, runs };
}

/** The plan with the daily robot and the rerun under the names the catalogue configures. */
export function withExecutorNames(
  plan: DemoPlan,
  names: { daily: string; rerun: string },
): DemoPlan {
  const rename = (executor: string) =>
    executor === DAILY_EXECUTOR
      ? names.daily
      : executor === RERUN_EXECUTOR
        ? names.rerun
        : executor;
  return { ...plan, runs: plan.runs.map((run) => ({ ...run, executor: rename(run.executor) })) };
}
