// Frontend example suite: drives Assay's own web app in Chromium (playwright-core), takes a
// screenshot of each page, and reports a CTRF file through `assay upload` into the build's run.
// Each test's id (TC...) and tags select it from TEST_TAG; a rerun reports attempt ASSAY_ATTEMPT.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium } from "playwright-core";
import { contract, env, selectTests, uploadWithCli } from "../lib/contract.mjs";

const CHROMIUM = env.CHROMIUM_PATH || "/usr/bin/chromium";
if (!existsSync(CHROMIUM)) {
  console.error(
    `Chromium was not found at ${CHROMIUM}: install it (apt-get install chromium) or set CHROMIUM_PATH.`,
  );
  process.exit(2);
}
const { url, attempt } = contract();
// A page that takes longer than this to show its content fails (a real budget: a loaded machine fails it).
const BUDGET_MS = Number(env.ASSAY_EXAMPLE_BUDGET_MS ?? "5000");

/** Each test opens a page of Assay and waits for text the spec puts there. */
const TESTS = [
  {
    id: 90001,
    title: "Dashboard opens",
    tags: ["@smoke", "@dashboard"],
    path: "/dashboard",
    text: "Dashboard",
  },
  {
    id: 90002,
    title: "Builds lists the builds",
    tags: ["@smoke", "@builds"],
    path: "/builds",
    text: "Frontend",
  },
  {
    id: 90003,
    title: "Test Reports lists the runs",
    tags: ["@smoke", "@reports"],
    path: "/test_runs",
    text: "Test Reports",
  },
  {
    id: 90004,
    title: "Top Fails shows its title",
    tags: ["@reports"],
    path: "/top_fails",
    text: "Top Failed Tests",
  },
  { id: 90005, title: "Dynamic Tags opens", tags: ["@tags"], path: "/dtags", text: "@unstable" },
  {
    // The run exists once a report was uploaded into it: this suite uploads at its end, so on a
    // build's first attempt the run is not there yet and this test fails; a rerun finds the run
    // (with the first attempt's results) and passes, and the test is then marked flaky.
    id: 90006,
    title: "This build's run opens in Test Reports with its counts",
    tags: ["@reports"],
    path: `/test_runs/${env.ASSAY_RUN_KEY}`,
    region: "Total",
  },
];

/** What a test waits for: its text, or the landmark region it names. */
const target = (page, test) =>
  test.region
    ? page.getByRole("region", { name: test.region, exact: true })
    : page.getByText(test.text, { exact: false }).first();

const selected = selectTests(TESTS);
console.log(
  `Running ${selected.length} of ${TESTS.length} frontend tests against ${url} (attempt ${attempt})`,
);
const browser = await chromium.launch({
  executablePath: CHROMIUM,
  args: [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
});
const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
const results = [];
for (const test of selected) {
  const start = Date.now();
  let status = "passed";
  let message;
  try {
    await page.goto(url + test.path, { waitUntil: "domcontentloaded", timeout: 30_000 });
    await target(page, test).waitFor({ timeout: BUDGET_MS });
  } catch (error) {
    status = "failed";
    const expected = test.region ? `the ${test.region} box` : `"${test.text}"`;
    message = `Expected ${expected} on ${test.path} within ${BUDGET_MS} ms: ${error.message.split("\n")[0]}`;
  }
  const screenshot = (await page.screenshot({ type: "png" }).catch(() => undefined))?.toString(
    "base64",
  );
  const stop = Date.now();
  console.log(
    `${status === "passed" ? "ok  " : "FAIL"} TC${test.id} ${test.title} (${stop - start} ms)`,
  );
  results.push({
    name: `TC${test.id} ${test.title}`,
    status,
    duration: stop - start,
    start,
    stop,
    message,
    tags: test.tags,
    suite: ["Assay web app"],
    filePath: "examples/frontend/run.mjs",
    retries: attempt,
    browser: "chromium",
    screenshot,
  });
}
await browser.close();

const dir = mkdtempSync(path.join(tmpdir(), "assay-frontend-example-"));
try {
  const report = path.join(dir, "ctrf-report.json");
  writeFileSync(
    report,
    JSON.stringify({
      reportFormat: "CTRF",
      specVersion: "0.0.0",
      results: { tool: { name: "assay-frontend-example" }, tests: results },
    }),
  );
  uploadWithCli([report], {
    format: "ctrf",
    family: "frontend",
    name: env.TEST_RUN_NAME,
    site: env.NORA_SITE,
    branch: env.BRANCH,
    executor: env.EXECUTOR,
    "next-gen": undefined,
  });
} finally {
  // The report was sent (or the upload failed, saying so): nothing is left in the machine's tmp.
  rmSync(dir, { recursive: true, force: true });
}
process.exit(results.some((r) => r.status === "failed") ? 1 : 0);
