import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Browser } from "playwright-core";

/**
 * Test data for browser journeys, made through the real ingestion API with a service token:
 * live runs (open, append results, attach files, finish) and report uploads of the server's
 * fixtures.
 */

const FIXTURES = fileURLToPath(new URL("../../apps/server/test/fixtures/", import.meta.url));
export const XSS = "<img src=x onerror=alert(1)>";
export const RESULTS = 40;
export const REQUESTS_PER_RESULT = 30;

export interface Ingest {
  api(path: string, init?: RequestInit): Promise<unknown>;
  postJson(path: string, body: unknown): Promise<unknown>;
}

/** Calls of the server at `url` as the ASSAY_INGEST_TOKEN `token`. */
export function ingestClient(url: string, token: string): Ingest {
  async function api(path: string, init: RequestInit = {}): Promise<unknown> {
    const res = await fetch(`${url}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${token}`, ...init.headers },
    });
    if (!res.ok)
      throw new Error(`${init.method ?? "GET"} ${path}: ${res.status} ${await res.text()}`);
    return res.json();
  }
  const postJson = (path: string, body: unknown) =>
    api(path, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  return { api, postJson };
}

/** A backend run through the live API: open, 40 results with 30 API requests each, finish. */
export async function uploadBackendRun({ postJson }: Ingest): Promise<string> {
  const run = (await postJson("/v1/ingest/runs", {
    family: "backend",
    env: "stage",
    baseurl: "https://api.stage.example.com/",
    executor: "e2e",
    test_run_name: "API regression",
  })) as { test_run_key: string };
  const results = Array.from({ length: RESULTS }, (_, i) => {
    const failed = i % 4 === 1;
    return {
      test_run_test_id: `api-${i}`,
      name: i === 2 ? XSS : `GET /patients/${i} answers 200`,
      title: i === 2 ? XSS : `GET /patients/${i} answers 200`,
      scenario: "patients",
      file: "test/patients.spec.ts",
      status: failed ? "failed" : "passed",
      // The stable id rides in a tag, as reporters send it (the result's test_id field is not read).
      tags: [i % 3 === 0 ? "@patient" : "@visit", `@TC${5000 + i}`],
      duration_ms: 150 + i * 7,
      error_name: failed ? "AssertionError" : undefined,
      error_message: failed ? `expected 500 to equal 200 for patient ${i}` : undefined,
      error_stack: failed
        ? [
            "AssertionError: expected 500 to equal 200",
            "    at Assertion.assert (node_modules/chai/lib/chai.js:41:13)",
            `    at Context.<anonymous> (/ci/work/test/patients.spec.ts:${20 + i}:18)`,
          ].join("\n")
        : undefined,
      console_log: [
        `calling GET https://api.stage.example.com/patients/${i}`,
        `response body: ${JSON.stringify({ id: i, name: "Patient", visits: Array(12).fill("visit") })}`,
        "done",
      ].join("\n"),
      body: `it("answers 200", async () => {\n  const res = await api.get("/patients/${i}");\n  expect(res.status).to.equal(200);\n});`,
      api_requests: Array.from({ length: REQUESTS_PER_RESULT }, (_, r) => ({
        method: r % 3 === 0 ? "POST" : "GET",
        url: `https://api.stage.example.com/patients/${i}/visits/${r}?expand=true`,
        status: failed && r === REQUESTS_PER_RESULT - 1 ? 500 : 200,
        response_time_ms: 20 + ((i * 31 + r * 17) % 400),
      })),
    };
  });
  await postJson(`/v1/ingest/runs/${run.test_run_key}/results`, results);
  await postJson(`/v1/ingest/runs/${run.test_run_key}/finish`, {});
  return run.test_run_key;
}

export async function uploadReport(
  ingest: Ingest,
  files: string[],
  fields: Record<string, string> = {},
): Promise<string> {
  const reports = files.map((file) => ({
    name: file.split("/").at(-1) ?? file,
    body: readFileSync(`${FIXTURES}${file}`),
  }));
  return postReports(ingest, reports, fields);
}

/**
 * A report a test wrote (not a fixture), uploaded as the file `name` of media type `type`;
 * returns the run's key.
 */
export function uploadReportText(
  ingest: Ingest,
  file: { name: string; type: string; text: string },
  fields: Record<string, string> = {},
): Promise<string> {
  return postReports(ingest, [{ name: file.name, type: file.type, body: file.text }], fields);
}

async function postReports(
  { api }: Ingest,
  reports: { name: string; type?: string; body: string | Buffer }[],
  fields: Record<string, string>,
): Promise<string> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const { name, type, body } of reports) {
    const bytes = typeof body === "string" ? body : new Uint8Array(body);
    form.append("file", new Blob([bytes], type ? { type } : {}), name);
  }
  const res = (await api("/v1/ingest/reports", { method: "POST", body: form })) as {
    test_run_key: string;
  };
  return res.test_run_key;
}

/** The cucumber fixture's run, a test of it with screenshots, and one without. */
export async function uploadFrontendRun(ingest: Ingest): Promise<[string, string, string]> {
  const { api } = ingest;
  const key = await uploadReport(ingest, ["cucumber/cucumber-report.json"]);
  const detail = (await api(`/v1/test-runs/${key}`)) as {
    results: { test_run_test_id: string }[];
  };
  const withShots: string[] = [];
  const without: string[] = [];
  for (const result of detail.results) {
    const id = encodeURIComponent(result.test_run_test_id);
    const test = (await api(`/v1/test-detail/${key}/${id}`)) as { screenshots: unknown[] };
    (test.screenshots.length > 0 ? withShots : without).push(result.test_run_test_id);
  }
  if (!withShots[0] || !without[0]) throw new Error("the cucumber fixture changed");
  return [key, withShots[0], without[0]];
}

const SCREEN_STEPS = [
  ["Given I sign in as a patient", "features/step_definitions/login.steps.ts:12", true],
  ["When I open the diary", "features/step_definitions/diary.steps.ts:8", true],
  ["And I answer the morning questions", "features/step_definitions/diary.steps.ts:21", true],
  ["And I submit the entry", "features/step_definitions/diary.steps.ts:40", true],
  ["Then I see the confirmation", "features/step_definitions/diary.steps.ts:52", true],
  ["And the entry is listed for today", "features/step_definitions/diary.steps.ts:60", false],
] as const;
// Screenshot n follows step SHOT_STEPS[n]: the last step fails after the last screenshot.
const SHOT_STEPS = [0, 2, 3, 4];

/** A 1280x800 PNG that looks like an app screen, drawn and captured by Chromium itself. */
async function drawScreen(browser: Browser, label: string, hue: number): Promise<Buffer> {
  const canvas = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await canvas.setContent(
    `<body style="margin:0;font:24px sans-serif;background:hsl(${hue},40%,95%)">
      <header style="height:64px;background:hsl(${hue},50%,35%);color:#fff;padding:18px 24px">
        Patient portal</header>
      <main style="padding:48px"><h1>${label}</h1>
        <div style="height:360px;border:2px dashed hsl(${hue},40%,60%);border-radius:8px"></div>
      </main></body>`,
  );
  const png = await canvas.screenshot();
  await canvas.close();
  return png;
}

/** A frontend run through the live API: one failed test with steps and four screenshots. */
export async function uploadScreenshotRun(
  { api, postJson }: Ingest,
  browser: Browser,
): Promise<[string, string]> {
  const run = (await postJson("/v1/ingest/runs", {
    family: "frontend",
    nora_site: "dev1.nextgen.example.com",
    executor: "e2e",
    is_next_gen: true,
  })) as { test_run_key: string };
  const key = run.test_run_key;
  const testKey = "diary#0";
  await postJson(`/v1/ingest/runs/${key}/results`, [
    {
      test_run_test_id: testKey,
      name: "Patient records a diary entry",
      title: "Patient records a diary entry",
      scenario: "Morning diary",
      file: "features/diary.feature",
      tags: ["@diary", "@TC4242"],
      status: "failed",
      error_message: "Expected the entry to be listed for today",
      start_time: "2026-05-01T08:00:00Z",
      duration_ms: 21_000,
      steps: SCREEN_STEPS.map(([action, location, passed]) => ({ action, location, passed })),
    },
  ]);
  for (const [n, stepIndex] of SHOT_STEPS.entries()) {
    const form = new FormData();
    form.append("description", `After: ${SCREEN_STEPS[stepIndex]![0]}`);
    form.append("step_index", String(stepIndex));
    form.append("timestamp", `2026-05-01T08:00:0${2 * n + 1}Z`);
    const png = await drawScreen(
      browser,
      `Screen ${n + 1}: ${SCREEN_STEPS[stepIndex]![0]}`,
      200 + n * 30,
    );
    form.append(
      "file",
      new Blob([new Uint8Array(png)], { type: "image/png" }),
      `screen-${n + 1}.png`,
    );
    await api(`/v1/ingest/runs/${key}/results/${encodeURIComponent(testKey)}/attachments`, {
      method: "POST",
      body: form,
    });
  }
  await postJson(`/v1/ingest/runs/${key}/finish`, {});
  return [key, testKey];
}
