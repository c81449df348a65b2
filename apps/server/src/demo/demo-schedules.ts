import {
  DEFAULT_BRANCH,
  DEFAULT_PARALLEL_RUNNERS,
  DEFAULT_RUN_TYPE,
  type SettingBody,
} from "@assay/core";
import type { Config } from "../config.js";
import type { Db } from "../db/pool.js";
import { createSetting, listSettings } from "../modules/settings/settings.service.js";
import { DAILY_TARGETS } from "./demo-plan.js";

/**
 * The Daily Run Scheduler's rows on a fresh demo: the daily robot's nightly UI runs on the dev
 * sites (the runs the demo's Dashboard charts), each as the schedule that would launch it. They
 * are off, so a demo server launches no build on its own; switched on, one launches its build
 * each night like any schedule. Their names say they are the demo's, as the notification rules'
 * do (demo-notify.ts).
 */
export function demoSchedules(): SettingBody[] {
  return DAILY_TARGETS.filter((t) => t.suite !== "api" && !t.stage).map((t) => {
    const platform = t.suite === "nextGen" ? "NextGen" : "Legacy";
    const [hour, minute] = [Math.floor(t.minute / 60), t.minute % 60];
    return {
      name: `Demo: ${platform} nightly regression on ${t.site}`,
      description: `Every ${platform} UI test, failures rerun once (off in the demo)`,
      isActive: 0,
      cron: `${minute} ${hour} * * *`,
      timeZone: "UTC",
      // As the Create Frontend Build dialog sends its defaults for the site.
      template: {
        family: "frontend",
        region: "US",
        payload: {
          mode: DEFAULT_RUN_TYPE,
          branch: DEFAULT_BRANCH,
          nora_site: t.site,
          parallel_runners: DEFAULT_PARALLEL_RUNNERS,
          isNextGen: t.suite === "nextGen",
        },
      },
      rerunFailures: true,
    };
  });
}

/**
 * Adds the demo's schedules, each unless there already: a first load stopped before its first
 * run is started again, and finds those it added.
 */
export async function addDemoSchedules(deps: {
  config: Pick<Config, "scheduleMinIntervalMs" | "webhookAllowPrivate">;
  db: Db;
}): Promise<void> {
  const existing = new Set((await listSettings(deps.db, false)).map((s) => s.name));
  for (const body of demoSchedules()) {
    if (existing.has(body.name)) continue;
    await createSetting(deps.db, body, {
      by: "demo",
      fullWebhook: false,
      webhooks: { allowPrivate: deps.config.webhookAllowPrivate },
      minIntervalMs: deps.config.scheduleMinIntervalMs,
    });
  }
}
