import { mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type Browser, type BrowserContextOptions, type Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";

/** Where journeys leave their screenshots, for a person to look at. */
export const SCREENSHOT_DIR = fileURLToPath(
  new URL("../../test-results/screenshots", import.meta.url),
);

// Without the background-networking flags Chromium keeps calling home, which this closed
// network refuses (README, "Developing": Chromium on a closed network).
const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

/** Console errors and uncaught page errors of every page opened so far, not yet checked. */
const problems: string[] = [];
/** Console errors a journey expects on purpose (e.g. a refused request it provokes). */
const allowed = new WeakMap<Page, RegExp[]>();
/** Each page's last requests that failed or were refused, for the report of a failed journey. */
const refusals = new WeakMap<Page, string[]>();
const REFUSALS_KEPT = 20;

function noteRefusal(page: Page, text: string): void {
  const list = refusals.get(page) ?? [];
  list.push(`${new Date().toISOString().slice(11, 23)} ${text}`);
  refusals.set(page, list.slice(-REFUSALS_KEPT));
}

function watch(page: Page): void {
  page.on("response", (response) => {
    if (response.status() >= 400) noteRefusal(page, `${response.status()} ${response.url()}`);
  });
  page.on("requestfailed", (request) =>
    noteRefusal(page, `${request.failure()?.errorText ?? "failed"} ${request.url()}`),
  );
  page.on("console", (message) => {
    if (message.type() !== "error") return;
    const text = `${message.text()} (${message.location().url})`;
    if (allowed.get(page)?.some((pattern) => pattern.test(text))) return;
    problems.push(`console error on ${page.url()}: ${text}`);
  });
  page.on("pageerror", (error) => problems.push(`page error on ${page.url()}: ${error.message}`));
}

/** Lets `page` log console errors matching `pattern`: for journeys that provoke one. */
export function allowConsoleErrors(page: Page, pattern: RegExp): void {
  allowed.set(page, [...(allowed.get(page) ?? []), pattern]);
}

/** The problems logged since the last call; e2e/support/setup.ts fails each test that has any. */
export function takePageProblems(): string[] {
  return problems.splice(0);
}

/**
 * Chromium, with every page it opens watched for console errors and page errors (browser.newPage
 * makes its page through newContext, so wrapping newContext sees every page).
 */
export async function launchBrowser(): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
    args: FLAGS,
  });
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    context.on("page", watch);
    return context;
  };
  return browser;
}

/**
 * The file's Chromium, launched before its other hooks run and closed after them, and a page of
 * its own for each test (pagePerTest). Call it before any hook that uses the browser; the
 * returned function gives the browser (for pages a test opens besides its own). `options` are the
 * pages' context options (1440x900 unless given).
 */
export function browserPerFile(
  use: (page: Page) => void,
  options: BrowserContextOptions = {},
): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });
  const get = () => {
    if (!browser) throw new Error("the browser is not launched yet (see browserPerFile)");
    return browser;
  };
  pagePerTest(get, use, { viewport: { width: 1440, height: 900 }, ...options });
  return get;
}

/**
 * Gives each test of the file a page of its own, closed after it: browser.newPage makes a
 * context for the page, so no cookie, storage, route or open dialog of another test carries
 * over, and each test navigates (and signs in) itself. `use` receives the new page.
 */
function pagePerTest(
  browser: () => Browser,
  use: (page: Page) => void,
  options: BrowserContextOptions,
): void {
  let current: Page | undefined;
  beforeEach(async () => {
    current = await browser().newPage(options);
    use(current);
  });
  afterEach(async ({ task }) => {
    if (current && task.result?.state === "fail") await reportFailure(current, task.name);
    await current?.close();
    current = undefined;
  });
}

const PAGE_TEXT_SHOWN = 3000;

/**
 * What a failed journey's page showed, printed with the failure: CI keeps only its output, and a
 * timeout alone ("waiting for ... to be visible") does not say what was on the screen instead.
 * The screenshot stays in SCREENSHOT_DIR for a run on this machine.
 */
async function reportFailure(page: Page, name: string): Promise<void> {
  const file = await screenshot(page, `failed-${name.replace(/[^\w-]+/g, "-").slice(0, 80)}`).catch(
    (error: Error) => `(no screenshot: ${error.message})`,
  );
  const text = await page
    .locator("body")
    .innerText({ timeout: 2_000 })
    .catch((error: Error) => `(no text: ${error.message})`);
  console.error(
    [
      `[e2e] "${name}" failed on ${page.url()}`,
      `requests refused or failed (last ${REFUSALS_KEPT}):`,
      ...(refusals.get(page) ?? ["(none)"]).map((line) => `  ${line}`),
      `page text (first ${PAGE_TEXT_SHOWN} characters):`,
      text.replace(/\n{2,}/g, "\n").slice(0, PAGE_TEXT_SHOWN),
      `screenshot: ${file}`,
    ].join("\n"),
  );
}

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path: file, fullPage: false });
  return file;
}
