import type { LookupAddress } from "node:dns";
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import type { LookupFunction } from "node:net";
import type { WebhookFormat } from "@assay/core";
import type { NewFailure, RunCounts } from "./run-summary.repo.js";
import { checkedAddresses, type WebhookPolicy } from "./webhook-url.js";

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
  /** failed leaves out the unstable results, counted in unstable (as the run's page shows). */
  run: (Omit<RunCounts, "id"> & { unstable: number; url: string }) | null;
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
      `${run.total} tests: ${run.passed} passed, ${run.failed} failed, ` +
        (run.unstable > 0 ? `${run.unstable} unstable, ` : "") +
        `${run.skipped} skipped` +
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
 * A connection's `lookup` that answers the addresses checked before the delivery and never asks
 * DNS again: a name that resolved to a public address at the check must not be reached at a
 * loopback or private one a moment later (DNS rebinding). The request still names the host, so
 * TLS sends it as SNI and checks the certificate against it.
 */
function pinnedLookup(addresses: readonly LookupAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    const usable = options.family
      ? addresses.filter((entry) => entry.family === options.family)
      : [...addresses];
    const [first] = usable;
    if (!first) {
      const error: NodeJS.ErrnoException = new Error("no checked address of that family");
      error.code = "ENOTFOUND";
      callback(error, "");
    } else if (options.all) callback(null, usable);
    else callback(null, first.address, first.family);
  };
}

/** A webhook's answer: its status, and its Retry-After header when it sent one. */
export interface WebhookAnswer {
  status: number;
  retryAfter?: string;
}

/** POSTs `payload` to the pinned addresses; resolves with the status once the answer is read. */
function post(url: URL, payload: string, addresses: LookupAddress[], timeoutMs: number) {
  const send = url.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise<WebhookAnswer>((resolve, reject) => {
    const timeout = new Error(`no answer within ${timeoutMs / 1000} s`);
    const fail = (error: Error) => {
      if (error === timeout) return reject(timeout);
      const code = (error as NodeJS.ErrnoException).code ?? error.message;
      reject(new Error(`could not reach the webhook's host (${code})`, { cause: error }));
    };
    const request = send(
      url,
      {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "content-length": Buffer.byteLength(payload),
          "user-agent": "Assay-Webhook/1",
        },
        lookup: pinnedLookup(addresses),
        // A connection of its own, closed after the answer: a pooled one could be reused by a
        // later delivery whose check found other addresses.
        agent: false,
      },
      (response) => {
        response.on("error", fail);
        const retryAfter = response.headers["retry-after"];
        response.on("end", () => resolve({ status: response.statusCode ?? 0, retryAfter }));
        // The answer's body is not used (redirects are not followed: a 3xx is a failure).
        response.resume();
      },
    );
    const timer = setTimeout(() => request.destroy(timeout), timeoutMs);
    request.on("close", () => clearTimeout(timer));
    request.on("error", fail);
    request.end(payload);
  });
}

/**
 * POSTs the body to the addresses the URL's host resolved to when checked; resolves on a 2xx
 * answer, else throws a message naming what went wrong (the URL is never in it: its path is a
 * secret).
 */
export async function deliverWebhook(
  url: string,
  body: unknown,
  policy: WebhookPolicy,
  timeoutMs = WEBHOOK_TIMEOUT_MS,
): Promise<void> {
  const { status } = await postWebhook(url, body, policy, timeoutMs);
  if (status < 200 || status > 299) throw new Error(`the webhook answered HTTP ${status}`);
}

/**
 * POSTs the body as JSON after the same checks (SSRF policy, pinned addresses) and answers the
 * status and Retry-After, for callers that decide themselves what to retry (notifications).
 */
export async function postWebhook(
  url: string,
  body: unknown,
  policy: WebhookPolicy,
  timeoutMs = WEBHOOK_TIMEOUT_MS,
): Promise<WebhookAnswer> {
  const addresses = await checkedAddresses(url, policy);
  return post(new URL(url), JSON.stringify(body), addresses, timeoutMs);
}
