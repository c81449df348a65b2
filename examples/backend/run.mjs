// Backend example suite: API tests against Assay's own API, each with the log of its requests
// (method, URL, status, time), reported through Assay's live results API into the build's run.
import { contract, env, selectTests } from "../lib/contract.mjs";

const { url, runKey, token, attempt } = contract();

/** One API call, logged for the test's API Requests table. */
async function call(log, method, path, expectStatus) {
  const start = performance.now();
  const answer = await fetch(url + path, { method });
  const ms = Math.round(performance.now() - start);
  log.push({ method, url: url + path, status: answer.status, response_time_ms: ms });
  if (answer.status !== expectStatus)
    throw new Error(`${method} ${path} answered ${answer.status}, expected ${expectStatus}`);
  return answer.headers.get("content-type")?.includes("json") ? answer.json() : answer.text();
}

const TESTS = [
  {
    id: 90101,
    title: "Health check answers ok",
    tags: ["@smoke"],
    run: async (log) => {
      const body = await call(log, "GET", "/healthz", 200);
      if (body.status !== "ok") throw new Error(`status was ${body.status}`);
    },
  },
  {
    id: 90102,
    title: "Catalog lists the sites",
    tags: ["@smoke", "@catalog"],
    run: async (log) => {
      const body = await call(log, "GET", "/v1/catalog", 200);
      if (!body.sites?.legacy?.length) throw new Error("no legacy sites in the catalog");
    },
  },
  {
    id: 90103,
    title: "Test runs are paged by 15",
    tags: ["@runs"],
    run: async (log) => {
      const body = await call(log, "GET", "/v1/test-runs", 200);
      if (body.page_size !== 15) throw new Error(`page_size was ${body.page_size}`);
    },
  },
  {
    id: 90104,
    title: "This build is listed as running",
    tags: ["@builds"],
    run: async (log) => {
      const body = await call(log, "GET", `/v1/builds/${env.ASSAY_BUILD_ID}`, 200);
      if (body.buildStatus !== "IN_PROGRESS")
        throw new Error(`buildStatus was ${body.buildStatus}`);
    },
  },
  {
    id: 90105,
    title: "A non-numeric history id is refused with 400",
    tags: ["@runs"],
    run: async (log) => {
      await call(log, "GET", "/v1/history/abc", 400);
    },
  },
];

async function ingest(method, path, body) {
  const answer = await fetch(url + path, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!answer.ok)
    throw new Error(`${method} ${path} answered ${answer.status}: ${await answer.text()}`);
  return answer.json();
}

const selected = selectTests(TESTS);
console.log(
  `Running ${selected.length} of ${TESTS.length} backend tests against ${url} (attempt ${attempt})`,
);
await ingest("POST", "/v1/ingest/runs", {
  run_key: runKey,
  family: "backend",
  test_run_name: env.TEST_RUN_NAME,
  env: env.ENV,
  branch: env.BRANCH,
  executor: env.EXECUTOR,
});
const results = [];
for (const test of selected) {
  const log = [];
  const start = new Date();
  let error;
  try {
    await test.run(log);
  } catch (caught) {
    error = caught;
  }
  const end = new Date();
  console.log(
    `${error ? "FAIL" : "ok  "} TC${test.id} ${test.title}${error ? `: ${error.message}` : ""}`,
  );
  results.push({
    test_id: test.id,
    name: `TC${test.id} ${test.title}`,
    suite_path: ["Assay API"],
    file: "examples/backend/run.mjs",
    status: error ? "failed" : "passed",
    error_message: error?.message,
    error_stack: error?.stack,
    tags: test.tags,
    attempt,
    start_time: start.toISOString(),
    end_time: end.toISOString(),
    duration_ms: end - start,
    baseurl: url,
    branch: env.BRANCH,
    api_requests: log,
  });
}
await ingest("POST", `/v1/ingest/runs/${encodeURIComponent(runKey)}/results`, results);
await ingest("POST", `/v1/ingest/runs/${encodeURIComponent(runKey)}/finish`, {});
process.exit(results.some((r) => r.status === "failed") ? 1 : 0);
