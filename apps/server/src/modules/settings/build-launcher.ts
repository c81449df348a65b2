import type { BuildTemplate } from "@assay/core";

/**
 * How a schedule launches a build. The builds module provides the real one (the lead wires it
 * in buildApp); until then a server has `unavailableLauncher`, and every slot or Run now is
 * recorded with its message, visible in the Daily Run Scheduler's table.
 */
export interface BuildLauncher {
  /** Starts a build from `template` run under `executorName`; rejects when it cannot. */
  launch(template: BuildTemplate, executorName: string): Promise<LaunchedBuild>;
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
