import type { WebhookFormat } from "@assay/core";
import type { NewFailure, RunCounts } from "./run-summary.repo.js";
import { assertDeliverable, type WebhookPolicy } from "./webhook-url.js";

/**
 * The run's summary a schedule's webhook receives when the run ends (after the automatic rerun,
 * when there is one): counts, new failures and the link, as Slack's incoming-webhook JSON
 * ({text}, mrkdwn) or as Assay's own JSON object (event "schedule.run.finished").
 */

export interface RunSummary {
  schedule: { id: number; name: string };
  /** The build whose end ended the run: the schedule's, or the automatic rerun of its failures. */
  build: { id: string; status: string; isRerun: boolean };
  /** null when the build ended before it reported anything. */
  run: (Omit<RunCounts, "id"> & { url: string }) | null;
  newFailures: { count: number; items: NewFailure[] };
}

/** The page of a run on the Test Reports screen (the dialog of its family). */
export function runUrl(publicUrl: string, run: Pick<RunCounts, "key" | "family">): string {
  const query = run.family === "backend" ? "?be=1" : run.family === "load" ? "?load=1" : "";
  return `${publicUrl}/test_runs/${encodeURIComponent(run.key)}${query}`;
}

/** Slack mrkdwn needs &, < and > escaped in text it did not write. */
const slackText = (value: string) =>
  value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

function slackBody(summary: RunSummary): { text: string } {
  const { run, schedule } = summary;
  const lines = [`*${slackText(schedule.name)}*: build ${summary.build.status.toLowerCase()}`];
  if (run) {
    lines[0] += ` — <${run.url}|${slackText(run.name)}>`;
    lines.push(
      `${run.total} tests: ${run.passed} passed, ${run.failed} failed, ${run.skipped} skipped` +
        (summary.build.isRerun ? " (after the automatic rerun of failures)" : ""),
    );
  } else {
    lines.push("No results were reported.");
  }
  const fresh = summary.newFailures;
  if (fresh.count > 0) {
    lines.push(`New failures (${fresh.count}):`);
    for (const failure of fresh.items) lines.push(`• ${slackText(failure.name)}`);
    if (fresh.count > fresh.items.length)
      lines.push(`…and ${fresh.count - fresh.items.length} more`);
  }
  return { text: lines.join("\n") };
}

export function webhookBody(format: WebhookFormat, summary: RunSummary): unknown {
  return format === "slack" ? slackBody(summary) : { event: "schedule.run.finished", ...summary };
}

/** How long one delivery may take; a slower receiver counts as a failed attempt (retried). */
export const WEBHOOK_TIMEOUT_MS = 10_000;

/**
 * POSTs the body; resolves on a 2xx answer, else throws a message naming what went wrong (the
 * URL is never in it: its path is a secret).
 */
export async function deliverWebhook(
  url: string,
  body: unknown,
  policy: WebhookPolicy,
  timeoutMs = WEBHOOK_TIMEOUT_MS,
): Promise<void> {
  await assertDeliverable(url, policy);
  let response: Response;
  try {
    response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", "user-agent": "Assay-Webhook/1" },
      body: JSON.stringify(body),
      redirect: "error",
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    const cause = error as Error;
    if (cause.name === "TimeoutError")
      throw new Error(`no answer within ${timeoutMs / 1000} s`, { cause });
    const code = (cause.cause as { code?: string } | undefined)?.code;
    throw new Error(`could not reach the webhook's host (${code ?? cause.message})`, { cause });
  }
  await response.body?.cancel();
  if (!response.ok) throw new Error(`the webhook answered HTTP ${response.status}`);
}
