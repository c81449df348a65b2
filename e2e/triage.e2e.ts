import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserPerFile, screenshot } from "./support/browser.js";
import { startDemoServer, type E2eServer } from "./support/server.js";

/**
 * Triage on the demo a fresh `npm start` shows (issue 34), signed out at 1440x900: last night's
 * regression (a cause fixed weeks ago, back), a results dialog filtered to one cause and to a
 * defect type by the server, and the Failures screen.
 */

let server: E2eServer;
let page: Page;
browserPerFile((p) => (page = p));

interface Group {
  id: number;
  count: number;
  message: string;
  isNew: boolean;
  isRegression: boolean;
}

async function json<T>(path: string): Promise<T> {
  const res = await fetch(`${server.url}${path}`);
  expect(res.status, path).toBe(200);
  return (await res.json()) as T;
}

/**
 * Last night's runs (both families) with a regression among their groups: the first whose message
 * no other group of its run has (the filter's option then is its count and message alone).
 */
async function regressions(): Promise<{ key: string; backend: boolean; group: Group }[]> {
  const found: { key: string; backend: boolean; group: Group }[] = [];
  for (const [path, backend] of [
    ["/v1/test-runs?page_size=30", false],
    ["/v1/api-test-runs?page_size=20", true],
  ] as const) {
    const { items } = await json<{ items: { test_run_key: string }[] }>(path);
    for (const run of items) {
      const groups = await json<Group[]>(`/v1/runs/${run.test_run_key}/failure-groups`);
      const group = groups.find(
        (g) => g.isRegression && groups.filter((other) => other.message === g.message).length === 1,
      );
      if (group) found.push({ key: run.test_run_key, backend, group });
    }
  }
  return found;
}

beforeAll(async () => {
  server = await startDemoServer();
}, 300_000);
afterAll(async () => {
  await server?.stop();
});

describe("triage on the demo", () => {
  it("shows last night's regression, and filters a run's results to its cause on the server", async () => {
    const found = (await regressions()).filter((r) => !r.backend);
    expect(found.length, "a frontend run of the demo with a regression").toBeGreaterThan(0);
    const { key, group } = found[0]!;
    await page.goto(`${server.url}/test_runs/${key}`);
    await page.getByRole("region", { name: "Known" }).waitFor();
    expect(await page.getByRole("region", { name: "Known" }).textContent()).toMatch(
      /\d+ regressions?/,
    );
    await page.getByRole("combobox", { name: "Failure group" }).click();
    await page
      .getByRole("option", { name: `${group.count} × ${group.message}`, exact: true })
      .click();
    // Only the group's failures are left, each card telling it came back.
    await expect.poll(() => new URL(page.url()).searchParams.get("group")).toBe(String(group.id));
    const cause = page.getByTestId("result-cause").first();
    await cause.waitFor();
    await expect
      .poll(async () => {
        const causes = await page.getByTestId("result-cause").allTextContents();
        return causes.every((text) => text.includes("regression: back after a pause"));
      })
      .toBe(true);
    expect(new URL(page.url()).searchParams.get("group")).toBe(String(group.id));
    await screenshot(page, "triage-regression-group-filter");

    // A defect type: the lead's decisions and last night's automatic ones are not to investigate.
    await page.getByRole("combobox", { name: "Failure group" }).click();
    await page.getByRole("option", { name: "All causes" }).click();
    await page.getByRole("combobox", { name: "Defect type" }).click();
    await page.getByRole("option", { name: "To investigate" }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get("defect")).toBe("to_investigate");
    await page.getByTestId("result-cause").first().waitFor();
    // The cards change once the filtered page arrives: until then the unfiltered ones show,
    // last night's automatic decisions among them.
    await expect
      .poll(async () => {
        const chips = await page.getByTestId("result-cause").allTextContents();
        return chips.length > 0 && chips.every((text) => text.startsWith("To investigate"));
      })
      .toBe(true);
  });

  it("lists the causes of the last 7 days on the Failures screen, a cause's page with its runs", async () => {
    await page.goto(`${server.url}/failures`);
    const first = page.getByRole("table").getByRole("link").first();
    await first.waitFor();
    await screenshot(page, "triage-failures");
    await first.click();
    await page.getByText(/^Runs \(\d+\)$/).waitFor();
    await screenshot(page, "triage-failure-group");
  });
});
