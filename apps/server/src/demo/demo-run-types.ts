import type { Attempt } from "./demo-outcomes.js";
import type { DemoTest } from "./demo-tests.js";
import type { Suite } from "./demo-vocabulary.js";

/*
 * The shapes of the demo plan: what demo-plan.ts, demo-load-plan.ts and demo-schedule.ts make
 * and the report writers (demo-cucumber, demo-junit, demo-live, demo-locust) read. A leaf of
 * types only, so the planners need not import each other's types in a loop.
 */

export type RunFormat = "cucumber" | "junit" | "live" | "locust";
export type RunKind = "daily" | "rerun" | "person" | "china" | "load";

export interface PlannedResult {
  test: DemoTest;
  start: Date;
  /** Oldest first; the last decides the result's status. */
  attempts: Attempt[];
  /** Screenshots after each step, not only on failure. */
  stepScreenshots: boolean;
  /** A screenshot of the failure (UI tests). */
  errorScreenshot: boolean;
}

export interface PlannedRun {
  key: string;
  family: "frontend" | "backend" | "load";
  kind: RunKind;
  format: RunFormat;
  suite?: Suite;
  name: string;
  start: Date;
  end: Date;
  executor: string;
  site?: string;
  env?: string;
  baseurl?: string;
  branch: string;
  commit: string;
  chinaRegion: boolean;
  results: PlannedResult[];
  load?: PlannedLoad;
}

/** A locust file, the host it targets and its endpoints with their typical median time. */
export interface LoadProfile {
  team: string;
  testFile: string;
  env: string;
  host: string;
  endpoints: readonly (readonly [method: string, name: string, medianMs: number])[];
}

/** A load run: which locust file hit which host, how hard and for how long. */
export interface PlannedLoad {
  profile: LoadProfile;
  users: number;
  runTime: string;
  durationSeconds: number;
  spawnRate: number;
  region: string;
  /** Share of failed requests (a bad day has a few per cent). */
  failureRate: number;
  /** Slows every endpoint down on a bad day. */
  slowdown: number;
}
