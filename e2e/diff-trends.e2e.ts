import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allowConsoleErrors, browserPerFile, screenshot } from "./support/browser.js";
import { ingestClient, uploadReportText, type Ingest } from "./support/uploads.js";
import { startE2eServer, type E2eServer } from "./support/server.js";

// Issue 35 in real Chromium against the real server, with reports sent through the ingest API:
// a run compared with the previous run of its job (one click in its dialog), two runs ticked in
// the run list and compared, and a load run's job over time with a regression flagged.

const TOKEN = "e2e-ingest-token-diff-0123456789abcdef";
const HOUR = 3_600_000;

let server: E2eServer;
let page: Page;
let ingest: Ingest;
// A page of its own per test; support/setup.ts fails a test on any console or page error.
browserPerFile((p) => (page = p));

type Outcome = "passed" | "failed";

/** A JUnit report of the checkout tests; each test's outcome and time (s) as given. */
function junitReport(startedAt: Date, tests: Record<string, [Outcome, number]>): string {
  const cases = Object.entries(tests).map(([name, [outcome, seconds]]) => {
    const failure =
      outcome === "failed" ? `<failure message="expected 80, got 90">AssertionError</failure>` : "";
    return `<testcase classname="Checkout" name="${name}" time="${seconds}">${failure}</testcase>`;
  });
  const timestamp = startedAt.toISOString().slice(0, 19);
  return `<?xml version="1.0" encoding="UTF-8"?>
<testsuites><testsuite name="Checkout" tests="${cases.length}" timestamp="${timestamp}">
  ${cases.join("\n  ")}
</testsuite></testsuites>`;
}

const uploadJunit = (xml: string) =>
  uploadReportText(
    ingest,
    { name: "junit.xml", type: "application/xml", text: xml },
    { test_run_name: "checkout nightly" },
  );

const LOCUST_HEADER =
  "Type,Name,Request Count,Failure Count,Median Response Time,Average Response Time,Min Response Time,Max Response Time,Average Content Size,Requests/s,Failures/s,50%,66%,75%,80%,90%,95%,98%,99%,99.9%,99.99%,100%";

/** A Locust stats CSV of one endpoint and the Aggregated row: p95 and failures as given. */
function locustCsv(p95: number, failures: number): string {
  const row = (type: string, name: string) =>
    `${type},${name},1000,${failures},${p95 / 2},${p95 / 2},5,${p95 * 2},100,50,${failures / 20},${p95 / 2},${p95 / 2},${p95 / 2},${p95},${p95},${p95},${p95},${p95},${p95},${p95},${p95}`;
  return [LOCUST_HEADER, row("POST", "/api/login"), row("", "Aggregated")].join("\n");
}

let before: string;
let after: string;
let loadRuns: string[];

beforeAll(async () => {
  server = await startE2eServer({ ASSAY_INGEST_TOKEN: TOKEN });
  ingest = ingestClient(server.url, TOKEN);
  const now = Date.now();
  before = await uploadJunit(
    junitReport(new Date(now - 2 * HOUR), {
      "keeps the cart total": ["passed", 1],
      "applies the voucher": ["failed", 1],
      "shows the receipt": ["passed", 1],
      "old guest checkout": ["passed", 1],
    }),
  );
  after = await uploadJunit(
    junitReport(new Date(now - HOUR), {
      "keeps the cart total": ["failed", 1],
      "applies the voucher": ["passed", 1],
      "shows the receipt": ["passed", 4],
      "pays with a wallet": ["passed", 1],
    }),
  );
  loadRuns = [];
  for (const [p95, failures] of [
    [100, 0],
    [110, 0],
    [90, 0],
    [180, 40],
  ] as const) {
    loadRuns.push(
      await uploadReportText(
        ingest,
        { name: "run_stats.csv", type: "text/csv", text: locustCsv(p95, failures) },
        { env: "stage", test_file: "locustfiles/checkout.py", test_run_name: "checkout load" },
      ),
    );
  }
});
afterAll(async () => {
  await server?.stop();
});

/** The count a section of the Compare screen shows in its summary line. */
const sectionCount = (title: string) =>
  page
    .getByRole("button", { name: new RegExp(`^${title} \\d+`) })
    .getByLabel(/ tests$/)
    .textContent();

describe("Compare runs", () => {
  it("compares a run with the previous run of its job in one click from its dialog", async () => {
    await page.goto(`${server.url}/test_runs/${after}`);
    const compare = page.getByRole("link", { name: "Compare with previous" });
    await compare.click();
    await page.waitForURL(`${server.url}/diff/${before}/${after}`);
    await page.getByRole("list", { name: "New failures" }).waitFor();
    expect(await sectionCount("New failures")).toBe("1");
    expect(await sectionCount("Fixed")).toBe("1");
    expect(await sectionCount("Still failing")).toBe("0");
    expect(await sectionCount("Slower")).toBe("1");
    expect(await sectionCount("Added")).toBe("1");
    expect(await sectionCount("Removed")).toBe("1");
    const failure = page.getByRole("list", { name: "New failures" }).getByRole("link").first();
    expect(await failure.textContent()).toBe("keeps the cart total");
    await screenshot(page, "diff-1440x900");
    // A test's link opens its result in the later run.
    await failure.click();
    await page.waitForURL(new RegExp(`/test_runs/${after}/[^/?]+$`));
  });

  it("compares two runs ticked in the run list, the earlier one as the base", async () => {
    await page.goto(`${server.url}/test_runs`);
    await page.getByRole("checkbox", { name: `Pick ${after} to compare` }).check();
    await page.getByRole("checkbox", { name: `Pick ${before} to compare` }).check();
    await page.getByRole("link", { name: "Compare", exact: true }).click();
    await page.waitForURL(`${server.url}/diff/${before}/${after}`);
    await page.getByRole("list", { name: "Fixed" }).waitFor();
    expect(await sectionCount("Fixed")).toBe("1");
  });

  it("refuses runs of different families in words", async () => {
    allowConsoleErrors(page, /status of 400 \(Bad Request\)/);
    await page.goto(`${server.url}/diff/${before}/${loadRuns[0]}`);
    await page.getByRole("alert").waitFor();
    expect(await page.getByRole("alert").textContent()).toContain(
      "a diff compares two runs of one family",
    );
  });
});

describe("Load trend", () => {
  it("opens from a load run's dialog and flags the endpoint that regressed", async () => {
    const last = loadRuns[loadRuns.length - 1]!;
    await page.goto(`${server.url}/test_runs/${last}?load=1`);
    await page.getByRole("link", { name: "Trend over time" }).click();
    await page.waitForURL(`${server.url}/load-trends/${last}`);
    const table = page.getByRole("table", { name: "Endpoints" });
    await table.waitFor();
    const rows = await table.locator("tbody tr").allInnerTexts();
    expect(rows[0]).toMatch(/^POST \/api\/login\t90\t180\t50\t4\t/);
    expect(rows[0]).toContain("Regressed: p50 (ms), p95 (ms), Error rate (%)");
    expect(rows[1]).toMatch(/^Aggregated\t/);
    await page.getByText("2 of 2 endpoints regressed").waitFor();
    // The charts of the selected endpoint, one mark per regressed point.
    const section = page.getByRole("region", { name: "Trend of POST /api/login" });
    await section.locator("svg").first().waitFor();
    await screenshot(page, "load-trend-1440x900");
  });
});
