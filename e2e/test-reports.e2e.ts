import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allowConsoleErrors, browserPerFile, screenshot } from "./support/browser.js";
import { ingestClient, type Ingest } from "./support/uploads.js";
import { startE2eServer, type E2eServer } from "./support/server.js";

const TOKEN = "e2e-ingest-token-0123456789abcdef";
const XSS = "<img src=x onerror=alert(1)>";

let server: E2eServer;
let page: Page;
// A page of its own per test; support/setup.ts fails a test on any console or page error.
const browser = browserPerFile((p) => {
  page = p;
  page.on("dialog", (dialog) => {
    throw new Error(`a script ran an alert: ${dialog.message()}`);
  });
});
let runKeys: string[] = [];

let ingest: Ingest;
const api = (path: string, init?: RequestInit) => ingest.api(path, init);
const postJson = (path: string, body: unknown) => ingest.postJson(path, body);

type Outcome = "passed" | "failed" | "pending" | null;

// Eight tests over three daily runs. TC7002 fails for the first time on day 3 (New Failure),
// TC7003 fails every day (Failed for three days), TC7004 fails on days 2 and 3 (neither).
const TESTS: { id: number; title: string; tag: string; days: Outcome[] }[] = [
  { id: 7001, title: "Patient signs in", tag: "@login", days: ["passed", "passed", "passed"] },
  {
    id: 7002,
    title: "Consent form is signed",
    tag: "@econsent",
    days: ["passed", "passed", "failed"],
  },
  { id: 7003, title: "Diary entry is saved", tag: "@diary", days: ["failed", "failed", "failed"] },
  { id: 7004, title: "Visit schedule shows", tag: "@login", days: ["passed", "failed", "failed"] },
  { id: 7005, title: "Translations load", tag: "@i18n", days: ["passed", "passed", "pending"] },
  { id: 7006, title: "Report export", tag: "@reports", days: [null, null, "passed"] },
  { id: 7008, title: XSS, tag: "@smoke", days: ["passed", "passed", "failed"] },
  { id: 7009, title: "Password reset", tag: "@login", days: ["passed", "failed", "failed"] },
];

const STEPS = [
  ["Given I sign in as a site user", "features/step_definitions/login.steps.ts:12", true],
  ["When I open the consent form", "features/step_definitions/consent.steps.ts:8", true],
  ["And I sign the form", "features/step_definitions/consent.steps.ts:30", true],
  ["Then the form is submitted", "features/step_definitions/consent.steps.ts:44", false],
] as const;

/** A screen-like PNG, drawn and captured by Chromium itself. */
async function drawScreen(label: string, hue: number): Promise<Buffer> {
  const canvas = await browser().newPage({ viewport: { width: 1280, height: 800 } });
  await canvas.setContent(
    `<body style="margin:0;font:28px sans-serif;background:hsl(${hue},40%,96%)">
      <header style="height:64px;background:hsl(${hue},50%,35%);color:#fff;padding:16px 24px">
        Site portal</header><main style="padding:48px"><h1>${label}</h1></main></body>`,
  );
  const png = await canvas.screenshot();
  await canvas.close();
  return png;
}

function resultOf(test: (typeof TESTS)[number], outcome: Outcome, day: number) {
  const failed = outcome === "failed";
  return {
    test_run_test_id: `tc${test.id}`,
    name: test.title,
    title: test.title,
    scenario: test.tag === "@econsent" ? "Consent" : undefined,
    file: `features/${test.tag.slice(1)}.feature`,
    tags: [test.tag, `@TC${test.id}`],
    status: outcome === "passed" ? "passed" : "failed",
    error_message: failed
      ? `Timed out waiting for #submit after 30000 ms, see nxl-${300 + (test.id % 100)}`
      : outcome === "pending"
        ? "Pending reason == waiting for the translation service"
        : undefined,
    start_time: `2026-05-0${day}T08:00:${String(test.id % 60).padStart(2, "0")}Z`,
    duration_ms: 4_000 + (test.id % 7) * 3_100,
    chrome_version: "126.0.6478.126",
    platform: "linux",
    commit_hash: "9f8e7d6c5b4a39281706f5e4d3c2b1a098765432",
    nora_site: "dev1.nextgen.example.com",
    steps: STEPS.map(([action, location, passed]) => ({
      action,
      location,
      passed: passed || !failed,
    })),
  };
}

/** One daily run through the live API; day 3 gets screenshots on the consent test. */
async function uploadDay(day: number): Promise<string> {
  const run = (await postJson("/v1/ingest/runs", {
    family: "frontend",
    test_run_name: `2026-05-0${day} 08:00 NextGen dev1`,
    nora_site: "dev1.nextgen.example.com",
    executor: "daily-robot",
    is_next_gen: true,
  })) as { test_run_key: string };
  const key = run.test_run_key;
  const results = TESTS.filter((t) => t.days[day - 1]).map((t) =>
    resultOf(t, t.days[day - 1]!, day),
  );
  await postJson(`/v1/ingest/runs/${key}/results`, results);
  if (day === 3) {
    for (const [n, stepIndex] of [0, 2].entries()) {
      const form = new FormData();
      form.append("description", `After: ${STEPS[stepIndex]![0]}`);
      form.append("step_index", String(stepIndex));
      form.append("timestamp", `2026-05-03T08:00:0${2 * n + 3}Z`);
      const png = await drawScreen(STEPS[stepIndex]![0], 210 + n * 40);
      form.append(
        "file",
        new Blob([new Uint8Array(png)], { type: "image/png" }),
        `consent-${n + 1}.png`,
      );
      await api(`/v1/ingest/runs/${key}/results/tc7002/attachments`, {
        method: "POST",
        body: form,
      });
    }
  }
  await postJson(`/v1/ingest/runs/${key}/finish`, {});
  return key;
}

beforeAll(async () => {
  server = await startE2eServer({ ASSAY_INGEST_TOKEN: TOKEN });
  ingest = ingestClient(server.url, TOKEN);
  runKeys = [];
  for (const day of [1, 2, 3]) runKeys.push(await uploadDay(day));
});
afterAll(async () => {
  await server?.stop();
});

/**
 * Opens the newest run's results dialog, as a shared link would. Its first screen comes rendered
 * with the page; the app takes it over, and renders the run list behind the dialog, once its
 * scripts have run: only then do the dialog's controls answer.
 */
async function openNewestRun() {
  await page.goto(`${server.url}/test_runs/${newest()}`);
  await results().getByRole("article").first().waitFor();
  await appTookOver();
}

/** Waits for the app to take over a page opened at a run's dialog: the run list is rendered. */
const appTookOver = () => page.locator("[role=tab]").first().waitFor({ state: "attached" });

/** What a journey's page scripts use of the page's globals (this project has no DOM types). */
type PageGlobals = {
  document: { querySelector(selector: string): unknown };
  addEventListener(type: string, listener: () => void): void;
  /** The first card of the server's HTML, kept as the page loaded. */
  servedCard?: unknown;
};

/** What this project (no DOM types) needs to know of an image element. */
type LoadedImage = { complete: boolean; naturalWidth: number };

/** Waits for the page's images to load (polled from here: the app's CSP forbids eval). */
async function imagesLoaded() {
  await expect
    .poll(() =>
      page.locator("img").evaluateAll((images) =>
        images.every((element) => {
          const image = element as unknown as LoadedImage;
          return image.complete && image.naturalWidth > 0;
        }),
      ),
    )
    .toBe(true);
}

const newest = () => runKeys[2]!;
const results = () => page.getByRole("dialog", { name: newest(), exact: true });
const cardIds = async () =>
  (await results()
    .getByRole("article")
    .evaluateAll((cards) =>
      cards.map((card) => card.getAttribute("aria-label")?.split(" ")[0]),
    )) as string[];

describe("Test Reports", () => {
  it("lists the runs newest first, with their counts", async () => {
    await page.goto(`${server.url}/test_runs`);
    const table = page.getByRole("table", { name: "Frontend runs" });
    await table.getByText("2026-05-03 08:00 NextGen dev1").waitFor();
    // The first cell ticks the run to compare (the run diff); the second names it.
    const names = await table.locator("tbody tr td:nth-child(2) a").allTextContents();
    expect(names).toEqual([3, 2, 1].map((d) => `2026-05-0${d} 08:00 NextGen dev1`));
    await screenshot(page, "test-reports-list-1440x900");
  });

  it("shows the loading, error and empty states", async () => {
    // The run list's 500 below is made on purpose; the browser logs it as a console error.
    allowConsoleErrors(page, /status of 500 .*\/v1\/test-runs\?/);
    await page.route("**/v1/test-runs?*", async (route) => {
      await new Promise((r) => setTimeout(r, 1500));
      await route.fulfill({ status: 500, json: { error: { code: "x", message: "down" } } });
    });
    await page.goto(`${server.url}/test_runs`);
    await page.locator("table[aria-busy='true'] .MuiSkeleton-root").first().waitFor();
    await page.waitForTimeout(200);
    await screenshot(page, "test-reports-loading-1440x900");
    await page.getByText("Error retrieving run list. Please try again and refresh.").waitFor();
    await screenshot(page, "test-reports-error-1440x900");
    await page.unroute("**/v1/test-runs?*");
    await page.getByRole("tab", { name: "Load" }).click();
    await page.getByText("No runs yet: upload a report with").waitFor();
    await screenshot(page, "test-reports-empty-1440x900");
  });

  it("opens a run on its failures, and the Hide switches change what is listed", async () => {
    await page.goto(`${server.url}/test_runs`);
    await page.getByRole("link", { name: "2026-05-03 08:00 NextGen dev1" }).click();
    await results().getByRole("article").first().waitFor();
    expect(page.url()).toBe(`${server.url}/test_runs/${newest()}`);
    expect(await cardIds()).toEqual(["TC7002", "TC7003", "TC7004", "TC7008", "TC7009"]);
    const summary = results().getByRole("region", { name: "Failed Summary" });
    expect(await summary.getByRole("listitem").allTextContents()).toEqual([
      "@login2",
      "@econsent1",
      "@diary1",
      "Unknown1",
    ]);
    await results().getByRole("img", { name: "Last screenshot of TC7002" }).waitFor();
    await imagesLoaded();
    await screenshot(page, "test-reports-results-1440x900");

    await results().getByRole("switch", { name: "Hide passed results" }).click();
    await expect
      .poll(cardIds)
      .toEqual(["TC7001", "TC7002", "TC7003", "TC7004", "TC7006", "TC7008", "TC7009"]);
    expect(page.url()).toContain("hide=skipped%2Cunstable");
    await results().getByRole("switch", { name: "Hide skipped results" }).click();
    await expect.poll(cardIds).toContain("TC7005");
    await results()
      .getByRole("article", { name: /^TC7005/ })
      .getByText(/Pending: waiting/)
      .waitFor();
    // The XSS title is text: it shows, and no image of it exists.
    await results().getByText(XSS).waitFor();
    expect(await page.locator("img[src='x']").count()).toBe(0);
    await screenshot(page, "test-reports-results-all-1440x900");
  });

  it("filters to the New Failure and keeps the view in a shareable URL", async () => {
    await openNewestRun();
    await results().getByRole("combobox", { name: "Filter Failure List" }).click();
    await page.getByRole("option", { name: "New Failure" }).click();
    await expect.poll(cardIds).toEqual(["TC7002", "TC7008"]);
    const url = page.url();
    expect(url).toContain("failures=new_failure");
    await screenshot(page, "test-reports-new-failure-1440x900");

    const shared = await browser().newPage({ viewport: { width: 1280, height: 720 } });
    await shared.goto(url);
    const dialog = shared.getByRole("dialog", { name: newest(), exact: true });
    await dialog.getByRole("article").first().waitFor();
    expect(await dialog.getByRole("article").count()).toBe(2);
    await screenshot(shared, "test-reports-new-failure-1280x720");
    await shared.close();

    await results().getByRole("combobox", { name: "Filter Failure List" }).click();
    await page.getByRole("option", { name: "Failed for three days" }).click();
    await expect.poll(cardIds).toEqual(["TC7003"]);
  });

  it("opens a test's detail with its steps and screenshots, and follows History", async () => {
    await openNewestRun();
    await results().getByRole("combobox", { name: "Filter Failure List" }).click();
    await page.getByRole("option", { name: "New Failure" }).click();
    const card = results().getByRole("article", { name: /^TC7002/ });
    await card.getByRole("button", { name: "Details", exact: true }).click();
    expect(page.url()).toContain(`/test_runs/${newest()}/tc7002`);
    const detail = page.getByRole("dialog", { name: /TC7002 · Consent form is signed/ });
    await detail.getByRole("list", { name: "Steps before screenshot 2" }).waitFor();
    expect(
      await detail.getByRole("list", { name: "Scenario steps" }).getByRole("listitem").count(),
    ).toBe(4);
    await imagesLoaded();
    await screenshot(page, "test-reports-detail-1440x900");
    await detail.getByRole("region", { name: "Script", exact: true }).scrollIntoViewIfNeeded();
    await screenshot(page, "test-reports-detail-bottom-1440x900");
    await detail.getByRole("button", { name: "Close the test detail" }).click();
    await expect.poll(() => page.url()).not.toContain("tc7002");

    await card.getByRole("link", { name: "History" }).click();
    await page.waitForURL(`${server.url}/history/7002`);
    await page
      .getByText(/Test History/)
      .first()
      .waitFor();
    await page.waitForTimeout(500);
    await screenshot(page, "test-reports-history-1440x900");
  });

  it("opens a run's dialog cold with its first screen rendered by the server, then takes it over", async () => {
    // Without scripts: the server's HTML alone shows the dialog's counts and first cards.
    const bare = await browser().newContext({ javaScriptEnabled: false });
    try {
      const still = await bare.newPage();
      await still.goto(`${server.url}/test_runs/${newest()}`);
      const dialog = still.getByRole("dialog", { name: newest(), exact: true });
      // It opens on its failures, as the app does.
      await dialog.getByText("Showing 5 of 8 results").waitFor();
      expect(await dialog.getByRole("article").count()).toBe(5);
      await dialog.getByRole("article", { name: /TC7002 Consent form is signed/ }).waitFor();
    } finally {
      await bare.close();
    }
    // With scripts, the app keeps the server's elements (it hydrates them: a mismatch would
    // render new ones, and log an error this journey fails on) and its controls then work.
    await page.addInitScript(() => {
      const window = globalThis as unknown as PageGlobals;
      window.addEventListener("DOMContentLoaded", () => {
        window.servedCard = window.document.querySelector("[role=feed] article");
      });
    });
    await openNewestRun();
    const keptCard = await page.evaluate(() => {
      const window = globalThis as unknown as PageGlobals;
      const card = window.document.querySelector("[role=feed] article");
      return card !== null && window.servedCard === card;
    });
    expect(keptCard).toBe(true);
    await results().getByRole("switch", { name: "Hide passed results" }).click();
    await results().getByText("Showing 7 of 8 results").waitFor();
  });

  it("closes back to /test_runs", async () => {
    await page.goto(`${server.url}/test_runs/${newest()}/tc7002`);
    await page.getByRole("dialog", { name: /TC7002/ }).waitFor();
    await page.keyboard.press("Escape");
    await expect.poll(() => page.url()).toBe(`${server.url}/test_runs/${newest()}`);
    await results().getByRole("button", { name: "Close" }).click();
    await expect.poll(() => page.url()).toBe(`${server.url}/test_runs`);
  });
});
