import { jobQueue, type Jobs } from "../../jobs/jobs.js";
import { runDueSlots, type SchedulerDeps } from "./scheduler.js";

/**
 * The scheduler's clock: one pg-boss schedule sends a tick each minute (once across servers),
 * and whichever server takes it runs every due slot. A tick is also sent at start, so a slot
 * missed while every server was down is caught up without waiting for the next minute.
 */
export const scheduleTickQueue = jobQueue<{ reason: string }>("schedules.tick", {
  retryLimit: 0,
  expireInSeconds: 300,
});

export async function startScheduler(jobs: Jobs, deps: SchedulerDeps): Promise<void> {
  // A tick a minute needs no faster polling; every server (and test app) runs this worker.
  const options = { pollingIntervalSeconds: 10 };
  await jobs.work(
    scheduleTickQueue,
    async () => {
      const report = await runDueSlots(deps, new Date());
      if (report.launched + report.missed > 0) deps.log.info(report, "schedules: slots handled");
    },
    options,
  );
  await jobs.schedule(scheduleTickQueue, "* * * * *", { reason: "minute" });
  await jobs.send(
    scheduleTickQueue,
    { reason: "start" },
    { singletonKey: "start", singletonSeconds: 60 },
  );
}
