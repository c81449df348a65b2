import { withUnstable } from "@assay/core";
import type { FastifyBaseLogger } from "fastify";
import type { Db } from "../../db/pool.js";
import { jobQueue, type Jobs } from "../../jobs/jobs.js";
import type { BuildLauncher } from "./build-launcher.js";
import * as followups from "./followup.repo.js";
import { unstableCounts } from "../runs/runs.service.js";
import { findRunCounts, newFailures, type RunCounts } from "./run-summary.repo.js";
import { deliverWebhook, runUrl, webhookBody, type RunSummary } from "./webhook.js";
import { WebhookRefused, type WebhookPolicy } from "./webhook-url.js";

/*
 * What a schedule does when its build ends. The builds runner sends BUILD_ENDED_QUEUE for every
 * build that ends (once: its end is recorded by a conditional update); a scheduled one then
 * either launches one rerun of its failures (rerunFailures, through the builds module's rerun:
 * same run, next attempt, the rerun-failed executor name), or, when the run is over, queues its
 * summary to the schedule's webhook. Delivery is a job of its own: a failed attempt (error,
 * timeout, non-2xx) is retried with backoff, and each attempt is recorded on the slot.
 */

export const BUILD_ENDED_QUEUE = jobQueue<BuildEnded>("schedules.build-ended", {
  retryLimit: 3,
  retryDelay: 5,
});

/** Five attempts in all, 5 s, 10 s, 20 s and 40 s apart (pg-boss' backoff doubles the delay). */
export const WEBHOOK_ATTEMPTS = 5;
export const WEBHOOK_QUEUE = jobQueue<WebhookJob>("schedules.webhook", {
  retryLimit: WEBHOOK_ATTEMPTS - 1,
  retryDelay: 5,
  retryBackoff: true,
  expireInSeconds: 60,
});

export interface BuildEnded {
  buildId: number;
  status: string;
}

interface WebhookJob {
  slotId: number;
  buildId: string;
  status: string;
  isRerun: boolean;
}

export interface FollowUpDeps {
  db: Db;
  launcher: BuildLauncher;
  /** The automatic rerun's executor name (catalog.dailyRuns.rerunExecutor). */
  rerunExecutorName: string;
  publicUrl: string;
  webhooks: WebhookPolicy;
  /** Queues a summary's delivery (a WEBHOOK_QUEUE job). */
  queueWebhook: (job: WebhookJob) => Promise<void>;
  log: FastifyBaseLogger;
}

const NEW_FAILURES_LISTED = 20;

/** Handles the end of build `ended`; builds no schedule launched are left alone. */
export async function onBuildEnded(deps: FollowUpDeps, ended: BuildEnded): Promise<void> {
  const found = await followups.slotOfBuild(deps.db, String(ended.buildId));
  if (!found) return;
  const { slot, setting, isRerun } = found;
  const slotId = Number(slot.id);
  if (!isRerun) {
    if (!(await followups.claimFollowUp(deps.db, slotId))) return;
    if (setting.rerun_failures && (await launchRerun(deps, slotId, slot.test_run_key))) return;
  }
  if (!setting.webhook_url || !(await followups.claimNotify(deps.db, slotId))) return;
  await deps.queueWebhook({
    slotId,
    buildId: String(ended.buildId),
    status: ended.status,
    isRerun,
  });
}

/** Launches the rerun of the run's failures; false (with the reason recorded) when there is none. */
async function launchRerun(
  deps: FollowUpDeps,
  slotId: number,
  key: string | null,
): Promise<boolean> {
  const run = key === null ? undefined : await findRunCounts(deps.db, key);
  let message: string;
  if (!run || run.failed === 0) {
    message = run ? "Nothing failed: no rerun needed." : "The build reported no results to rerun.";
  } else if (run.family === "load" || !deps.launcher.rerunFailures) {
    message = "Reruns are not available for this build.";
  } else {
    try {
      const rerun = await deps.launcher.rerunFailures(run.family, run.key, deps.rerunExecutorName);
      await followups.recordRerun(deps.db, slotId, { buildId: rerun.buildId, message: null });
      return true;
    } catch (error) {
      message = `The rerun could not be launched: ${(error as Error).message}`;
      deps.log.warn({ err: error, slotId }, "schedule: rerun of failures not launched");
    }
  }
  await followups.recordRerun(deps.db, slotId, { buildId: null, message });
  return false;
}

/** A run's counts for its summary: unstable counted out of failed, as the run's page counts it. */
export async function countedRun(db: Db, key: string) {
  const found = await findRunCounts(db, key);
  if (!found) return undefined;
  const unstable =
    found.family === "frontend" ? ((await unstableCounts(db, [found.id])).get(found.id) ?? 0) : 0;
  return withUnstable(found, unstable);
}

async function summaryOf(
  deps: FollowUpDeps,
  job: WebhookJob,
  setting: { id: number; name: string },
  key: string | null,
) {
  const run = key === null ? undefined : await countedRun(deps.db, key);
  const summary: RunSummary = {
    schedule: { id: Number(setting.id), name: setting.name },
    build: { id: job.buildId, status: job.status, isRerun: job.isRerun },
    run: run ? publicRun(run, deps.publicUrl) : null,
    newFailures: run
      ? await newFailures(deps.db, run, NEW_FAILURES_LISTED)
      : { count: 0, items: [] },
  };
  return summary;
}

/** The run as the summary gives it: its database id left out, its link added. */
function publicRun(run: RunCounts & { unstable: number }, publicUrl: string) {
  return {
    key: run.key,
    name: run.name,
    family: run.family,
    total: run.total,
    passed: run.passed,
    failed: run.failed,
    unstable: run.unstable,
    skipped: run.skipped,
    flaky: run.flaky,
    url: runUrl(publicUrl, run),
  };
}

/**
 * One delivery attempt of a slot's summary. A failure is recorded, then thrown so pg-boss retries
 * the job, until the last attempt, which records the slot's notification as failed.
 */
export async function deliverSummary(deps: FollowUpDeps, job: WebhookJob): Promise<void> {
  const found = await followups.slotWithSetting(deps.db, job.slotId);
  if (!found) return;
  const { slot, setting } = found;
  const attempt = slot.notify_attempts + 1;
  if (!setting.webhook_url || setting.archived_at !== null) {
    const why = setting.webhook_url ? "the schedule was deleted" : "its webhook was removed";
    await followups.recordDelivery(deps.db, job.slotId, "failed", `Not sent: ${why}.`);
    return;
  }
  try {
    const summary = await summaryOf(deps, job, setting, slot.test_run_key);
    const body = webhookBody(setting.webhook_format ?? "json", summary);
    await deliverWebhook(setting.webhook_url, body, deps.webhooks);
    await followups.recordDelivery(deps.db, job.slotId, "delivered", null);
  } catch (error) {
    const last = attempt >= WEBHOOK_ATTEMPTS;
    const message = `Attempt ${attempt} of ${WEBHOOK_ATTEMPTS}: ${(error as Error).message}${last ? "" : "; retrying"}.`;
    await followups.recordDelivery(deps.db, job.slotId, last ? "failed" : "pending", message);
    const detail = error instanceof WebhookRefused ? error.detail : undefined;
    deps.log.warn(
      { slotId: job.slotId, attempt, reason: (error as Error).message, detail },
      "webhook",
    );
    if (!last) throw new Error(message, { cause: error });
  }
}

/** Registers both handlers (every server runs them; the claims make each step happen once). */
export async function startFollowUps(jobs: Jobs, deps: FollowUpDeps): Promise<void> {
  await jobs.work(BUILD_ENDED_QUEUE, (data) => onBuildEnded(deps, data), {
    pollingIntervalSeconds: 1,
  });
  await jobs.work(WEBHOOK_QUEUE, (data) => deliverSummary(deps, data), {
    pollingIntervalSeconds: 1,
  });
}
