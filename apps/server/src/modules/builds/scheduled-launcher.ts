import {
  BackendBuildSchema,
  blankFieldsAsAbsent,
  frontendBuildSchema,
  LoadBuildSchema,
  type BuildList,
  type BuildTemplate,
} from "@assay/core";
import type { BuildLauncher } from "../settings/build-launcher.js";
import { rerun } from "./builds.rerun.js";
import { checkTargetHosts } from "./target-hosts.js";
import { invalidBuild, recordBuild, SCHEDULER, type BuildsDeps } from "./builds.service.js";

/**
 * The Daily Run Scheduler's launcher: a schedule's template is checked by the same rules as its
 * Create Build dialog (an OQ run is refused: it needs a person's Spira credentials) and run under
 * the daily robot's executor name, recorded as started by whoever pressed Run now, else by the
 * scheduler.
 */
export function scheduledBuildLauncher(deps: BuildsDeps): BuildLauncher {
  /** The template's list and payload, by its dialog's rules; a 400 naming each field if not. */
  const checked = (template: BuildTemplate, executorName?: string) => {
    const list: BuildList =
      template.family === "frontend"
        ? template.region === "CHINA"
          ? "china"
          : "frontend"
        : template.family;
    const body = executorName ? { ...template.payload, executor: executorName } : template.payload;
    const schema =
      list === "backend"
        ? BackendBuildSchema
        : list === "load"
          ? LoadBuildSchema
          : frontendBuildSchema({ ...deps.catalog, hasSpiraCredentials: false });
    const parsed = schema.safeParse(blankFieldsAsAbsent(template.family, body));
    if (!parsed.success) throw invalidBuild(parsed.error);
    checkTargetHosts(parsed.data, deps.builds.allowLinkLocalTargets);
    return { list, payload: parsed.data as Record<string, unknown> };
  };
  return {
    check(template) {
      checked(template);
    },
    async launch(template, executorName, by) {
      const { list, payload } = checked(template, executorName);
      // Run now is the person's build (and their build limit's); a slot is the scheduler's.
      const build = await recordBuild(deps, by ?? SCHEDULER, { list, payload });
      return { buildId: String(build.id), testRunKey: build.test_run_key };
    },
    async rerunFailures(family, testRunKey, executorName) {
      const build = await rerun(deps, family, testRunKey, "failed", SCHEDULER, executorName);
      return { buildId: String(build.id), testRunKey: build.test_run_key };
    },
  };
}
