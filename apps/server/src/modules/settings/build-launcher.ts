import type { BuildTemplate } from "@assay/core";

/**
 * How a schedule launches a build. buildApp wires the builds module's `scheduledBuildLauncher`;
 * tests give their own. `unavailableLauncher` stands for a server that cannot launch builds: its
 * slots are recorded with that message, visible in the Daily Run Scheduler's table.
 */
/** The person who pressed Run now: the build is theirs, and counts against their build limit. */
export interface LaunchedBy {
  id: number;
  email: string;
  name: string;
}

export interface BuildLauncher {
  /**
   * Starts a build from `template` run under `executorName`, started by `by` (Run now) or by the
   * scheduler itself (a slot); rejects when it cannot.
   */
  launch(template: BuildTemplate, executorName: string, by?: LaunchedBy): Promise<LaunchedBuild>;
  /** Throws a 400 naming what its Create Build dialog's rules refuse in `template`. */
  check?(template: BuildTemplate): void;
  /**
   * Launches one rerun of the run's failed tests into the same run (its next attempt), under
   * `executorName`; rejects when there is nothing to rerun or the run cannot be rerun. Absent
   * on launchers that cannot rerun.
   */
  rerunFailures?(
    family: "frontend" | "backend",
    testRunKey: string,
    executorName: string,
  ): Promise<LaunchedBuild>;
}

export interface LaunchedBuild {
  buildId: string;
  testRunKey: string;
}

/** A launcher's refusal that is not a failure of the schedule: nothing here can launch builds. */
export class BuildsUnavailable extends Error {
  constructor(message = "builds are not available on this server") {
    super(message);
    this.name = "BuildsUnavailable";
  }
}

export const unavailableLauncher: BuildLauncher = {
  launch: () => Promise.reject(new BuildsUnavailable()),
};
