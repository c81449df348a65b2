import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserPerFile, screenshot } from "./support/browser.js";
import { startE2eServer, type E2eServer } from "./support/server.js";
import { ingestClient, uploadReportText } from "./support/uploads.js";

/*
 * The one-file run report of a 14,000-result run (issue 38): downloaded with the run page's
 * "Download report", at most 10 MB, and opened from disk (offline, file://) in Chromium. The
 * figures go to docs/performance.md ("Run report as one file").
 */

const TOKEN = "e2e-ingest-token-0123456789abcdef";
const SCENARIOS = 14_000;
const PER_FEATURE = 100;
const STEPS = ["Given a signed-in customer", "When they open the cart", "And they add a product"];
const MAX_BYTES = 10 * 1024 * 1024;

/** A Cucumber JSON report: 6 steps a scenario, 1 in 20 failing with a stack, 1 in 33 skipped. */
function cucumber(): string {
  const features = [];
  for (let f = 0; f < SCENARIOS / PER_FEATURE; f++) {
    const elements = [];
    for (let s = 0; s < PER_FEATURE; s++) {
      const i = f * PER_FEATURE + s;
      const fails = i % 20 === 3;
      const skipped = !fails && i % 33 === 5;
      const steps = [
        ...STEPS,
        `Then the total is ${i % 97}`,
        "And the badge shows it",
        "And the cart is saved",
      ].map((name, n) => ({
        keyword: name.split(" ")[0] + " ",
        name: name.slice(name.indexOf(" ") + 1),
        result: {
          status: fails && n === 3 ? "failed" : skipped && n >= 3 ? "skipped" : "passed",
          duration: 120_000_000 + n * 1_000_000,
          ...(fails && n === 3
            ? {
                error_message: `AssertionError: expected total ${i % 97} but was ${(i % 97) + 5}\n    at Cart.total (src/cart.ts:${40 + (i % 9)}:11)\n    at World.<anonymous> (features/steps/cart.steps.ts:22:5)`,
              }
            : {}),
        },
      }));
      elements.push({
        type: "scenario",
        keyword: "Scenario",
        name: `Cart case ${i}`,
        id: `c${i}`,
        line: 3 + s,
        steps,
      });
    }
    features.push({
      keyword: "Feature",
      name: `Cart area ${f}`,
      uri: `features/cart-${f}.feature`,
      id: `f${f}`,
      elements,
    });
  }
  return JSON.stringify(features);
}

let server: E2eServer;
let runKey = "";
let page: Page;
const downloads = mkdtempSync(path.join(tmpdir(), "assay-report-e2e-"));
const browser = browserPerFile((p) => {
  page = p;
});

beforeAll(async () => {
  server = await startE2eServer({ ASSAY_INGEST_TOKEN: TOKEN });
  runKey = await uploadReportText(
    ingestClient(server.url, TOKEN),
    { name: "cucumber.json", type: "application/json", text: cucumber() },
    { family: "frontend", test_run_name: "Cart nightly (14,000)" },
  );
}, 300_000);

afterAll(async () => {
  await server?.stop();
  rmSync(downloads, { recursive: true, force: true });
});

describe("the run report of a 14,000-result run", () => {
  it("downloads from the run page, is at most 10 MB and opens offline quickly", async () => {
    await page.goto(`${server.url}/test_runs/${runKey}`);
    const link = page.getByRole("link", { name: "Download report" });
    await link.waitFor({ timeout: 60_000 });
    const started = Date.now();
    const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
    const file = path.join(downloads, download.suggestedFilename());
    await download.saveAs(file);
    const madeMs = Date.now() - started;
    const bytes = statSync(file).size;
    expect(bytes).toBeLessThanOrEqual(MAX_BYTES);

    // Opened as a person opens a mailed file: from disk, with nothing to fetch.
    const opens: { loadMs: number; paintMs: number }[] = [];
    for (let i = 0; i < 3; i++) {
      const viewer = await browser().newPage({ viewport: { width: 1440, height: 900 } });
      await viewer.goto(pathToFileURL(file).toString(), { waitUntil: "load", timeout: 120_000 });
      opens.push(
        await viewer.evaluate(() => {
          const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
          const paint = performance.getEntriesByName("first-contentful-paint")[0];
          return { loadMs: nav.loadEventEnd, paintMs: paint?.startTime ?? -1 };
        }),
      );
      if (i === 2) {
        expect(await viewer.locator("details").count()).toBe(SCENARIOS + SCENARIOS / 20);
        await screenshot(viewer, "run-report-14000-1440x900");
      }
      await viewer.close();
    }
    const load = opens.map((o) => Math.round(o.loadMs)).sort((a, b) => a - b);
    console.log(
      `run report: ${(bytes / 1048576).toFixed(2)} MB for ${SCENARIOS} results, downloaded in ${madeMs} ms; ` +
        `opened (load event) in ${load.join(", ")} ms, first paint ${opens.map((o) => Math.round(o.paintMs)).join(", ")} ms`,
    );
    // The counts and the failures (the top of the file) are on screen within 2 s (issue 38); the
    // whole file's load on this shared 2-core machine is recorded, not bounded (performance.md).
    const paint = opens.map((o) => o.paintMs).sort((a, b) => a - b);
    expect(paint[1]).toBeGreaterThan(0);
    expect(paint[1]).toBeLessThan(2000);
    expect(load[1]).toBeLessThan(120_000);
  }, 300_000);
});
