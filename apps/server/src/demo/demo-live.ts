import type { ApiRequestInput, ResultInput } from "@assay/core";
import { Rng } from "./prng.js";
import type { Attempt } from "./demo-outcomes.js";
import type { PlannedResult, PlannedRun } from "./demo-run-types.js";
import type { DemoTest } from "./demo-tests.js";

/*
 * API test results in Assay's own result schema, as a live reporter sends them to
 * POST /v1/ingest/runs/:key/results: one result per attempt, each with the HTTP requests the
 * test made (method, url, status, response time).
 */

/** A JavaScript stack under an API failure message. */
export function apiStack(test: DemoTest, message: string): string {
  return [
    `AssertionError: ${message}`,
    `    at Context.<anonymous> (${test.file}:${18 + (test.id % 40)}:31)`,
    "    at process.processImmediate (node:internal/timers:478:21)",
  ].join("\n");
}

/** The status the request under test answered with, as the failure message tells it. */
function failureStatus(message: string): number {
  for (const status of [500, 503, 403]) if (message.includes(String(status))) return status;
  return message.includes("timeout") || message.includes("ECONNRESET") ? 0 : 200;
}

/** The requests of one attempt: a token, the request under test, and follow-up reads. */
function requestsOf(run: PlannedRun, result: PlannedResult, attempt: Attempt, n: number) {
  const { test } = result;
  const rng = Rng.for("requests", run.key, test.id, n);
  const base = run.baseurl ?? "https://api.example.com";
  const request = test.request ?? { method: "GET", path: "/api/v2/health", status: 200 };
  const path = request.path.replace("{id}", String(rng.int(1000, 99999)));
  const mainStatus = attempt.passed ? request.status : failureStatus(attempt.message ?? "");
  const slow = mainStatus >= 500 || mainStatus === 0 ? 8 : 1;
  const requests: ApiRequestInput[] = [
    {
      method: "POST",
      url: `${base}/api/v2/auth/token`,
      status: 200,
      response_time_ms: rng.int(40, 160),
    },
    {
      method: request.method,
      url: `${base}${path}`,
      status: mainStatus,
      response_time_ms: rng.int(30, 400) * slow,
    },
  ];
  for (let i = rng.int(0, 3); i > 0; i--) {
    const page = rng.int(1, 5);
    requests.push({
      method: "GET",
      url: `${base}${request.path.replace("/{id}", "")}?page=${page}`,
      status: 200,
      response_time_ms: rng.int(20, 250),
    });
  }
  return requests;
}

/** What a test printed: one line per request, as the API suite's logger writes them. */
function logLines(requests: readonly ApiRequestInput[]): string[] {
  return requests.map(
    (r) => `[api] ${r.method} ${r.url} -> ${r.status} (${r.response_time_ms} ms)`,
  );
}

/** The console log of a result's final attempt (JUnit system-out). */
export function apiLog(run: PlannedRun, result: PlannedResult): string[] {
  const final = result.attempts[result.attempts.length - 1]!;
  return logLines(requestsOf(run, result, final, result.attempts.length - 1));
}

function script(test: DemoTest): string {
  const request = test.request ?? { method: "GET", path: "/api/v2/health", status: 200 };
  const call = `api.${request.method.toLowerCase()}(\`${request.path.replace("{id}", "${id}")}\`)`;
  return [
    `it(${JSON.stringify(test.scenario)}, async () => {`,
    `  const res = await ${call};`,
    `  expect(res.status).to.equal(${request.status});`,
    `  expect(res.body).to.matchSchema(schemas.${test.area.folder});`,
    "});",
  ].join("\n");
}

/** The results of a planned API run, one per attempt, ready for the live API. */
export function liveResults(run: PlannedRun): ResultInput[] {
  const results: ResultInput[] = [];
  for (const result of run.results) {
    const { test } = result;
    let start = result.start.getTime();
    result.attempts.forEach((attempt, n) => {
      const requests = requestsOf(run, result, attempt, n);
      const end = start + attempt.durationMs;
      results.push({
        name: test.scenario,
        suite_path: [test.area.feature],
        title: test.area.feature,
        scenario: test.scenario,
        file: test.file,
        body: script(test),
        tags: [...test.tags, `@TC${test.id}`],
        status: attempt.passed ? "passed" : "failed",
        attempt: n,
        start_time: new Date(start).toISOString(),
        end_time: new Date(end).toISOString(),
        duration_ms: attempt.durationMs,
        baseurl: run.baseurl,
        branch: run.branch,
        commit_hash: run.commit,
        executor: run.executor,
        console_log: logLines(requests).join("\n"),
        api_requests: requests,
        ...(attempt.passed
          ? {}
          : {
              error_name: "AssertionError",
              error_message: attempt.message,
              error_stack: apiStack(test, attempt.message ?? "failed"),
            }),
      });
      start = end + 500;
    });
  }
  return results;
}
