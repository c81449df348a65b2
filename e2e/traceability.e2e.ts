import { execFile } from "node:child_process";
import { copyFileSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserPerFile, screenshot } from "./support/browser.js";
import { startJiraFake, type JiraFake } from "./support/jira.js";
import { signInOnPage } from "./support/oidc-login.js";
import { ingestClient, uploadReportText } from "./support/uploads.js";
import { startE2eServer, type E2eServer } from "./support/server.js";

// Traceability Matrix: requirements imported with the real CLI (`assay rms import`), tests
// uploaded as a CTRF report whose tags name the requirements, then the screen in Chromium. Jira
// is the server's fake: the linked bug's status and summary come from it, not the file.

const TOKEN = "e2e-ingest-token-0123456789abcdef";
const USER = { email: "qa@example.com", password: "correct-horse-battery-staple" };
const CLI = fileURLToPath(new URL("../apps/cli/dist/main.js", import.meta.url));
const HOUR = 3_600_000;

const REQUIREMENTS = [
  "rms,summary,epic,type,bugs",
  'RMS-101,Patient signs in with a one-time code,Patient login,Story,"NXL-501|Code expires too early|Open"',
  "RMS-102,Patient completes the daily diary,Daily diary,Story,",
  "RMS-103,Audit trail of diary changes,Compliance,Requirement,",
].join("\n");

let server: E2eServer;
let jira: JiraFake;
// Jira's word on the file's bug: another summary and status than the file says.
const JIRA_BUG = {
  key: "NXL-501",
  summary: "One-time code expires after 30 s instead of 5 min",
  status: "In Progress",
  issuetype: "Bug",
};
let page: Page;
// A page of its own per test; support/setup.ts fails a test on any console or page error.
browserPerFile((p) => (page = p));
/** What `assay rms import` printed when beforeAll imported the requirements. */
let imported: string;

function ctrf(startedAt: number, loginStatus: "passed" | "failed") {
  const test = (id: number, name: string, rms: string, status: string) => ({
    name: `${name} @TC${id}`,
    status,
    duration: 1500,
    start: startedAt,
    stop: startedAt + 1500,
    tags: [`@TC${id}`, rms],
    filePath: `features/nextGen/${rms.slice(1).toLowerCase()}.feature`,
    ...(status === "failed" ? { message: "Expected the code screen" } : {}),
  });
  return JSON.stringify({
    results: {
      tool: { name: "playwright" },
      summary: {},
      tests: [
        test(9101, "Signs in with a one-time code", "@RMS-101", "passed"),
        test(9102, "Recovers a locked account", "@RMS-101", loginStatus),
        test(9103, "Completes today's diary", "@RMS-102", "skipped"),
      ],
    },
  });
}

const upload = (report: string) =>
  uploadReportText(
    ingestClient(server.url, TOKEN),
    { name: "ctrf.json", type: "application/json", text: report },
    { test_run_name: "nextgen nightly" },
  );

async function shot(name: string) {
  const file = await screenshot(page, name);
  copyFileSync(file, path.join(tmpdir(), `h22-traceability-${name}.png`));
}

beforeAll(async () => {
  const fake = await startJiraFake([JIRA_BUG]);
  jira = fake.jira;
  server = await startE2eServer({
    ...fake.env,
    ASSAY_INGEST_TOKEN: TOKEN,
    ASSAY_ADMIN_EMAIL: USER.email,
    ASSAY_ADMIN_PASSWORD: USER.password,
  });
  const now = Date.now();
  await upload(ctrf(now - 2 * HOUR, "passed"));
  await upload(ctrf(now - HOUR, "failed"));
  imported = await importRequirements();
});
afterAll(async () => {
  await server?.stop();
  await jira?.stop();
});

/** `assay rms import` of REQUIREMENTS, as a person would run it; returns what it printed. */
async function importRequirements(content = REQUIREMENTS, ...flags: string[]): Promise<string> {
  const dir = mkdtempSync(path.join(tmpdir(), "rms-"));
  const file = path.join(dir, "requirements.csv");
  writeFileSync(file, content);
  const { stdout } = await promisify(execFile)(process.execPath, [
    CLI,
    "rms",
    "import",
    file,
    ...flags,
    "--server",
    server.url,
    "--token",
    TOKEN,
  ]);
  return stdout;
}

/** Signed in, the matrix with its rows. */
async function openMatrix() {
  await signInOnPage(page, server.url, USER, "/traceability-matrix");
  await expect.poll(() => rows().count(), POLL).toBeGreaterThan(0);
}

const rows = () => page.getByTestId("rms-row");
// A dialog fades in: shoot it once the fade is over.
const faded = () =>
  expect
    .poll(() =>
      page.evaluate("getComputedStyle(document.querySelector('.MuiDialog-container')).opacity"),
    )
    .toBe("1");
// The machine is shared: give the page time to answer.
const POLL = { timeout: 15_000 };

describe("Traceability Matrix", () => {
  it("imports the requirements with `assay rms import`", async () => {
    // Imported in beforeAll: every test here reads the matrix it made.
    expect(imported).toContain("Imported 3 requirements with 1 linked bugs from requirements.csv");
    // --dry-run (issue 32): what a one-row file would do, the others archived, nothing changed.
    const [header, first] = REQUIREMENTS.split("\n");
    const dry = await importRequirements(`${header}\n${first}\n`, "--dry-run");
    expect(dry).toContain("Dry run: nothing changed. Importing requirements.csv would:");
    expect(dry).toContain("archived 2");
    const matrix = await fetch(`${server.url}/v1/traceability-matrix`);
    expect(((await matrix.json()) as { rows: unknown[] }).rows).toHaveLength(3);
  });

  it("shows the computed matrix with its source, bar and footer", async () => {
    await openMatrix();
    await expect.poll(() => rows().count(), POLL).toBe(3);
    expect(await page.getByText("Source: imported file requirements.csv").count()).toBe(1);
    expect(await page.getByText("Total RMS: 3").isVisible()).toBe(true);
    expect(await page.getByText("Coverage: 66.67%").isVisible()).toBe(true);
    expect(await rows().first().getByRole("img").getAttribute("aria-label")).toBe(
      "1 passed, 1 failed, 0 not run",
    );
    await shot("matrix-1440x900");
  });

  it("filters to < 100% passed (a test not run counts) and expands the tests", async () => {
    await openMatrix();
    await page.locator('[aria-label="Filter test runs"]').click();
    await page.getByRole("option", { name: "< 100% passed" }).click();
    await expect.poll(() => rows().count(), POLL).toBe(2);
    await page.locator('[aria-label="Filter test runs"]').click();
    await page.getByRole("option", { name: "100% passed", exact: true }).click();
    await expect.poll(() => rows().count(), POLL).toBe(0);
    await page.locator('[aria-label="Filter test runs"]').click();
    await page.getByRole("option", { name: "Not Covered" }).click();
    await expect.poll(() => rows().count(), POLL).toBe(1);
    await page.locator('[aria-label="Filter test runs"]').click();
    await page.getByRole("option", { name: "Covered", exact: true }).click();
    await expect.poll(() => rows().count(), POLL).toBe(2);
    await rows().first().getByRole("button", { name: "Show tests" }).click();
    const tc = rows().first().getByRole("link", { name: "TC9102" });
    await tc.waitFor();
    expect(await tc.getAttribute("href")).toMatch(/features\/nextGen\/rms-101\.feature$/);
    await shot("filtered-expanded-1440x900");
  });

  it("opens a test's history with its results and report links", async () => {
    await openMatrix();
    // The row's tests show once it is expanded (this test once relied on the filter test's click).
    await rows().first().getByRole("button", { name: "Show tests" }).click();
    await rows()
      .first()
      .getByRole("button", { name: /Recovers a locked account/ })
      .click();
    const dialog = page.getByRole("dialog", { name: "Test History for TC9102" });
    await dialog.getByRole("link", { name: "Test Report" }).first().waitFor();
    expect(await dialog.getByRole("link", { name: "Test Report" }).count()).toBe(2);
    expect(
      await dialog.getByRole("link", { name: "Test Report" }).first().getAttribute("href"),
    ).toMatch(/^\/test_runs\/[^/]+\/[^/]+$/);
    expect(await dialog.locator("tbody tr").count()).toBe(2);
    expect(await dialog.locator("tbody tr").first().innerText()).toMatch(/\d{4} at .* UTC/);
    await faded();
    await shot("test-history-1440x900");
    await dialog.getByRole("button", { name: "Close" }).click();
    await dialog.waitFor({ state: "hidden" });
  });

  it("edits a note and the no-automation flag; the row hides, then shows shaded", async () => {
    await openMatrix();
    await page.locator('[aria-label="Filter test runs"]').click();
    await page.getByRole("option", { name: "Show All" }).click();
    await page.getByRole("button", { name: "Edit RMS-103" }).click();
    const dialog = page.getByRole("dialog", { name: "Update: RMS-103" });
    await dialog.getByLabel("Note").fill("Verified by the manual OQ protocol");
    await dialog.getByLabel("No Automation for this RMS").check();
    await faded();
    await shot("edit-dialog-1440x900");
    await dialog.getByRole("button", { name: "Submit" }).click();
    await dialog.waitFor({ state: "hidden" });

    await expect.poll(() => rows().count(), POLL).toBe(2);
    await page.getByLabel("Hide Inactive RMS").uncheck();
    await expect.poll(() => rows().count(), POLL).toBe(3);
    expect(await page.getByText("Verified by the manual OQ protocol").isVisible()).toBe(true);
    await shot("inactive-shown-1440x900");

    // Undone, as the other tests (in any order) expect three active requirements.
    await page.getByRole("button", { name: "Edit RMS-103" }).click();
    const undo = page.getByRole("dialog", { name: "Update: RMS-103" });
    await undo.getByLabel("Note").fill("");
    await undo.getByLabel("No Automation for this RMS").uncheck();
    await undo.getByRole("button", { name: "Submit" }).click();
    await undo.waitFor({ state: "hidden" });
    await page.getByLabel("Hide Inactive RMS").check();
    await expect.poll(() => rows().count(), POLL).toBe(3);
  });

  it("lists the linked bugs with Jira's status chip and summary", async () => {
    await openMatrix();
    await page.getByRole("button", { name: "View Linked Bugs" }).click();
    const dialog = page.getByRole("dialog", { name: "Linked Jira Bugs" });
    await dialog.getByText("NXL-501").waitFor();
    expect(await dialog.getByText(JIRA_BUG.summary).isVisible()).toBe(true);
    expect(await dialog.locator(".MuiChip-root").innerText()).toBe("In Progress");
    // The file's own summary and status gave way to Jira's.
    expect(await dialog.getByText("Code expires too early").count()).toBe(0);
    expect(
      await dialog.getByText(/^Summary and status from Jira \(http:\/\/127\.0\.0\.1:/).count(),
    ).toBe(1);
    expect(jira.count("/rest/api/3/issue/bulkfetch")).toBeGreaterThan(0);
    await faded();
    await shot("linked-bugs-1440x900");
    await dialog.getByRole("button", { name: "Close" }).click();
  });

  it("links a test to a requirement on the screen and removes the link", async () => {
    await openMatrix();
    expect(await page.getByText("Coverage: 66.67%").isVisible()).toBe(true);
    await page.getByRole("button", { name: "Link tests to RMS-103" }).click();
    const dialog = page.getByRole("dialog", { name: "Linked tests: RMS-103" });
    await dialog.getByText("No test is linked on this screen.").waitFor();
    await dialog.getByLabel("Test id").fill("TC9101");
    await dialog.getByRole("button", { name: "Link test" }).click();
    await dialog.getByText(/^Linked TC9101 Signs in with a one-time code/).waitFor();
    expect(await dialog.getByRole("cell", { name: /^qa@example.com, \d{4}-/ }).count()).toBe(1);
    await faded();
    await shot("link-dialog-1440x900");
    await dialog.getByRole("button", { name: "Close" }).click();
    await dialog.waitFor({ state: "hidden" });

    // RMS-103 is covered now: by the linked test, marked with who linked it.
    await expect.poll(() => page.getByText("Coverage: 100.00%").count(), POLL).toBe(1);
    const rms103 = rows().filter({ hasText: "RMS-103" });
    await rms103.getByRole("button", { name: "Show tests" }).click();
    await rms103.getByRole("img", { name: /^Linked on the screen by qa@example.com/ }).waitFor();
    // Shot once the list has opened (the Collapse's transition is over).
    await rms103.locator(".MuiCollapse-entered").waitFor();
    await shot("linked-row-1440x900");

    // Removed: no longer covered, and the link stays in the history.
    await page.getByRole("button", { name: "Link tests to RMS-103" }).click();
    const again = page.getByRole("dialog", { name: "Linked tests: RMS-103" });
    await again.getByRole("button", { name: "Remove TC9101" }).click();
    await again
      .getByRole("region", { name: "Removed links" })
      .getByText(/^TC9101 /)
      .waitFor();
    await faded();
    await shot("link-removed-1440x900");
    await again.getByRole("button", { name: "Close" }).click();
    await expect.poll(() => page.getByText("Coverage: 66.67%").count(), POLL).toBe(1);
  });

  it("prints the whole matrix with the time of its data and its source", async () => {
    await openMatrix();
    await page.getByRole("link", { name: "Printable report" }).click();
    await page.waitForURL(/\/traceability-matrix\/print$/);
    await expect.poll(() => page.getByTestId("print-row").count(), POLL).toBe(3);
    // The bug as Jira has it, as in the dialog.
    await page.getByText(`[In Progress] ${JIRA_BUG.summary}`).waitFor();
    const facts = await page.getByTestId("report-fact").allInnerTexts();
    expect(facts[0]).toMatch(/^Data read from the server \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC$/);
    expect(facts[1]).toMatch(/^Source: imported file requirements.csv, \d{4}-/);
    expect(facts.at(-1)).toMatch(/^Linked bugs: summary and status from Jira \(http:\/\/127/);
    expect(await page.getByText("Coverage (active RMS): 66.67%").isVisible()).toBe(true);
    await shot("print-1440x900");

    // What the browser's Print to PDF makes of it: the print stylesheet, then a real PDF.
    await page.emulateMedia({ media: "print" });
    expect(await page.getByRole("button", { name: "Print" }).isVisible()).toBe(false);
    await shot("print-media-1440x900");
    const pdf = await page.pdf({ preferCSSPageSize: true });
    expect(pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    // A4 landscape, as the report's @page asks.
    expect(pdf.toString("latin1")).toMatch(/\/MediaBox \[0 0 841\.9\d* 594\.9\d*\]/);
    writeFileSync(path.join(tmpdir(), "s28-traceability-matrix.pdf"), pdf);
  });
});
