import type { Page, Request } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserPerFile, screenshot } from "./support/browser.js";
import { startE2eServer, type E2eServer } from "./support/server.js";
import { ingestClient, uploadReportText, type Ingest } from "./support/uploads.js";

/*
 * A run of 100,000 results in the Frontend results dialog (issue 24): the run is a JUnit report
 * sent to the live ingest API (the fastest way in: a few seconds), after a small earlier run that
 * gives some of its tests a history. The dialog opens it, jumps to its end, searches, hides the
 * passed, filters the New Failures and opens a result, as a person would, and the page fetches
 * only the pages it shows.
 */

const TOKEN = "e2e-ingest-token-0123456789abcdef";
const RESULTS = 100_000;
const EARLIER = 1_000;
/** Test i fails in the big run when i % 50 is 7: 2,000 failures. */
const failsNow = (i: number) => i % 50 === 7;
/** ... and failed the day before too when i % 100 is 7 (among the first 1,000): not new. */
const failedBefore = (i: number) => i % 100 === 7;
const FAILED = RESULTS / 50;
const NEW_FAILURES = FAILED - EARLIER / 100;

let server: E2eServer;
let ingest: Ingest;
let runKey = "";
let page: Page;
browserPerFile((p) => {
  page = p;
});

/** A JUnit report of `count` test cases, one suite, its cases dated by the suite's timestamp. */
function junit(count: number, day: string, failed: (i: number) => boolean): string {
  const parts = [`<testsuites><testsuite name="Nightly" timestamp="${day}T08:00:00">`];
  for (let i = 0; i < count; i++) {
    const open = `<testcase classname="features.area${i % 40}" name="case ${i}" time="0.2"`;
    parts.push(
      failed(i)
        ? `${open}><failure message="Timed out waiting for #submit-${i}">at step ${i % 7}</failure></testcase>`
        : `${open}/>`,
    );
  }
  parts.push("</testsuite></testsuites>");
  return parts.join("\n");
}

async function upload(count: number, day: string, failed: (i: number) => boolean) {
  const text = junit(count, day, failed);
  return uploadReportText(
    ingest,
    { name: `nightly-${day}.xml`, type: "application/xml", text },
    { family: "frontend", test_run_name: `${day} nightly`, nora_site: "dev1.nextgen.example.com" },
  );
}

beforeAll(async () => {
  server = await startE2eServer({ ASSAY_INGEST_TOKEN: TOKEN });
  ingest = ingestClient(server.url, TOKEN);
  await upload(EARLIER, "2026-05-01", failedBefore);
  runKey = await upload(RESULTS, "2026-05-02", failsNow);
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

const dialog = () => page.getByRole("dialog", { name: runKey, exact: true });
const feed = () => dialog().getByRole("feed", { name: "Results" });
const card = (i: number) => dialog().getByRole("article", { name: new RegExp(` case ${i}$`) });
const shown = (text: string) => dialog().getByText(`Showing ${text} results`).waitFor();

describe("a run of 100,000 results", () => {
  it("opens, jumps to its end, searches, hides the passed, filters and opens a result", async () => {
    const views: string[] = [];
    page.on("request", (request: Request) => {
      if (request.url().includes("/view?")) views.push(new URL(request.url()).search);
    });
    // Every status shown: the whole run is listed.
    await page.goto(`${server.url}/test_runs/${runKey}?hide=`);
    await shown(`100,000 of 100,000`);
    await card(0).waitFor();

    // To the end, as the End key does. The cards there are measured once their page is in, which
    // moves the end: press again until the last one shows, as a person would.
    await feed().focus();
    for (let tries = 0; tries < 40 && !(await card(RESULTS - 1).isVisible()); tries++) {
      await feed().press("End");
      await page.waitForTimeout(500);
    }
    await card(RESULTS - 1)
      .waitFor()
      .catch((error: Error) => {
        throw new Error(`${error.message}\nview requests:\n${views.join("\n")}`);
      });
    expect(await feed().getAttribute("aria-busy")).toBe("false");
    // The first page, the one after it and the last ones, not the 330 pages between (a slow
    // frame of End's scroll animation on a loaded machine may ask for one on the way).
    const atEnd = views.length;
    expect(atEnd, views.join("\n")).toBeLessThanOrEqual(8);
    await screenshot(page, "large-run-end-1440x900");

    // A search: 'case 9999' is in case 9999 and case 99990 to 99999.
    const search = dialog().getByRole("textbox", { name: "Search" });
    await search.fill("case 9999");
    await shown("11 of 100,000");
    await card(9_999).waitFor();
    await card(99_990).waitFor();
    expect(await card(99_989).count()).toBe(0);
    await search.fill("");
    await shown("100,000 of 100,000");

    // Hide passed: the failures are left, the first failure first.
    await dialog().getByRole("switch", { name: "Hide passed results" }).click();
    await shown(`${FAILED.toLocaleString("en-US")} of 100,000`);
    await card(7).waitFor();
    expect(await card(0).count()).toBe(0);

    // New Failure: the failures the day before had failed too are left out.
    await dialog().getByRole("combobox", { name: "Filter Failure List" }).click();
    await page.getByRole("option", { name: "New Failure" }).click();
    await shown(`${NEW_FAILURES.toLocaleString("en-US")} of 100,000`);
    await card(57).waitFor();
    expect(await card(7).count()).toBe(0);
    await screenshot(page, "large-run-new-failures-1440x900");

    // A result opens with its failure.
    await card(57).getByRole("button", { name: "Details", exact: true }).click();
    const detail = page.getByRole("dialog", { name: /case 57/ });
    await detail.getByText("Timed out waiting for #submit-57").first().waitFor();
    expect(views.length - atEnd).toBeLessThan(20);
  }, 90_000);
});
