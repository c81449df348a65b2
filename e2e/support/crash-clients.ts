import { randomUUID } from "node:crypto";

/**
 * The clients of the crash campaign (apps/cli/src/crash-campaign.test.ts): each uploads report
 * after report, or live run after live run, with an Idempotency-Key, retrying every step until
 * the server acknowledges it, whatever happens to the server in between. They write down what
 * was acknowledged, which is what the campaign's checks hold the server to.
 */

export interface Target {
  /** The server's current address: it changes at every restart. */
  url: string;
  token: string;
  /** Told of every answer that is not 2xx (the PostgreSQL campaign holds them to 503). */
  onRefused?: (status: number, body: string) => void;
}

export interface ReportJob {
  kind: "junit" | "ctrf";
  runKey: string;
  results: number;
  /**
   * Sent with test_run_name = runKey and no run_key: the server makes a new run key, so only
   * the Idempotency-Key keeps a retry from storing a second run.
   */
  named?: boolean;
  /** The run key of the acknowledgement. */
  storedKey?: string;
  /** Answered 2xx, by the first attempt or a retry. */
  acknowledged: boolean;
  attempts: number;
  /** What the client is sending now ("upload"), or undefined between steps. */
  step?: string;
}

export interface LiveJob {
  kind: "live";
  runKey: string;
  /** The sizes of the batches acknowledged, in order (batches are 3 and 5 results). */
  batches: number[];
  attachmentAcknowledged: boolean;
  attachmentAttempts: number;
  finished: boolean;
  /** What the client is sending now ("open", "batch", "screenshot", "finish"). */
  step?: string;
}

export type Job = ReportJob | LiveJob;

const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);

/** A seeded generator, so that a campaign prints a seed that replays its choices. */
export function prng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 2 ** 32;
  };
}

function junit(runKey: string, count: number): string {
  const cases = Array.from({ length: count }, (_, i) =>
    i % 7 === 0
      ? `<testcase classname="${runKey}" name="case ${i}" time="0.01"><failure message="boom">at ${i}</failure></testcase>`
      : `<testcase classname="${runKey}" name="case ${i}" time="0.01"/>`,
  );
  return `<?xml version="1.0"?><testsuites><testsuite name="${runKey}">${cases.join("")}</testsuite></testsuites>`;
}

function ctrf(runKey: string, count: number): string {
  const tests = Array.from({ length: count }, (_, i) => ({
    name: `${runKey} test ${i}`,
    status: i % 5 === 0 ? "failed" : "passed",
    duration: 3,
  }));
  return JSON.stringify({
    results: {
      tool: { name: "crash-campaign" },
      summary: { tests: count, passed: 0, failed: 0, pending: 0, skipped: 0, other: 0 },
      tests,
    },
  });
}

type Step = (url: string) => Promise<Response>;

/**
 * Sends one step until it is answered 2xx: a dropped connection, a refused one (the server is
 * down), a 5xx or a 409 idempotency_in_progress (the same key still being stored) is retried
 * after a short pause; another 4xx is a bug the campaign reports.
 * Gives up (false) only when `stopping()` says the campaign is over.
 */
async function untilAcknowledged(
  target: Target,
  step: Step,
  stopping: () => boolean,
  attempt: () => void,
  acknowledged: (body: string) => void = () => undefined,
): Promise<boolean> {
  for (;;) {
    if (stopping()) return false;
    attempt();
    try {
      const response = await step(target.url);
      const body = await response.text();
      if (response.ok) {
        acknowledged(body);
        return true;
      }
      target.onRefused?.(response.status, body);
      const inProgress = response.status === 409 && body.includes("idempotency_in_progress");
      if (response.status < 500 && !inProgress) {
        throw new Error(`the server refused a valid step: ${response.status} ${body}`);
      }
    } catch (error) {
      if ((error as Error).message.startsWith("the server refused")) throw error;
    }
    await new Promise((r) => setTimeout(r, 150));
  }
}

export async function runReportJob(
  target: Target,
  job: ReportJob,
  stopping: () => boolean,
): Promise<void> {
  const content =
    job.kind === "junit" ? junit(job.runKey, job.results) : ctrf(job.runKey, job.results);
  const name = job.kind === "junit" ? "report.xml" : "ctrf.json";
  const idempotencyKey = randomUUID();
  job.step = "upload";
  job.acknowledged = await untilAcknowledged(
    target,
    (url) => {
      const form = new FormData();
      form.append(job.named ? "test_run_name" : "run_key", job.runKey);
      form.append("file", new Blob([content]), name);
      return fetch(`${url}/v1/ingest/reports`, {
        method: "POST",
        headers: { authorization: `Bearer ${target.token}`, "idempotency-key": idempotencyKey },
        body: form,
        signal: AbortSignal.timeout(60_000),
      });
    },
    stopping,
    () => job.attempts++,
    (body) => (job.storedKey = (JSON.parse(body) as { test_run_key: string }).test_run_key),
  );
  job.step = undefined;
}

export async function runLiveJob(
  target: Target,
  job: LiveJob,
  stopping: () => boolean,
): Promise<void> {
  const headers = { authorization: `Bearer ${target.token}`, "content-type": "application/json" };
  const post = (path: string, body: unknown) => (url: string) =>
    fetch(`${url}${path}`, {
      method: "POST",
      headers,
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
  const run = `/v1/ingest/runs/${job.runKey}`;
  const noop = () => undefined;
  job.step = "open";
  if (
    !(await untilAcknowledged(
      target,
      post("/v1/ingest/runs", { family: "frontend", run_key: job.runKey }),
      stopping,
      noop,
    ))
  )
    return;
  for (const [from, size] of [
    [0, 3],
    [3, 5],
  ] as const) {
    const batch = Array.from({ length: size }, (_, i) => ({
      test_run_test_id: `t${from + i}`,
      name: `${job.runKey} live ${from + i}`,
      status: i === 1 ? "failed" : "passed",
    }));
    job.step = "batch";
    if (!(await untilAcknowledged(target, post(`${run}/results`, batch), stopping, noop))) return;
    job.batches.push(size);
  }
  job.step = "screenshot";
  // A retry after a kill that lost the answer of a stored screenshot must not store a second one.
  const shotKey = randomUUID();
  job.attachmentAcknowledged = await untilAcknowledged(
    target,
    (url) => {
      const form = new FormData();
      form.append("file", new Blob([PNG], { type: "image/png" }), "shot.png");
      return fetch(`${url}${run}/results/t0/attachments`, {
        method: "POST",
        headers: { authorization: `Bearer ${target.token}`, "idempotency-key": shotKey },
        body: form,
        signal: AbortSignal.timeout(30_000),
      });
    },
    stopping,
    () => job.attachmentAttempts++,
  );
  if (!job.attachmentAcknowledged) return;
  job.step = "finish";
  job.finished = await untilAcknowledged(target, post(`${run}/finish`, {}), stopping, noop);
  job.step = undefined;
}
