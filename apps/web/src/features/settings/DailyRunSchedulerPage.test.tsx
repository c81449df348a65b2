import type { Setting } from "@assay/core";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { buildMe } from "../../test/me-factory";
import { jsonResponse, mockApi } from "../../test/mock-api";
import { renderUi } from "../../test/render-ui";
import { DailyRunSchedulerPage } from "./DailyRunSchedulerPage";

vi.setConfig({ testTimeout: 120_000 });

const setting: Setting = {
  id: 7,
  name: "Weekly",
  description: "",
  isActive: 1,
  cron: "15 4 * * 1",
  timeZone: "UTC",
  template: {
    family: "frontend",
    region: "US",
    payload: { mode: "run_all", nora_site: "dev1.example.com", branch: "master" },
  },
  rerunFailures: false,
  webhook: null,
  scheduleText: "At 04:15 on Monday (UTC)",
  nextRuns: [],
  recentSlots: [],
  createdBy: null,
  updatedBy: null,
  updatedAt: "2026-11-28T00:00:00.000Z",
};

describe("Daily Run Scheduler: Run now", () => {
  it("asks first, saying which build it starts; Cancel starts nothing", async () => {
    const runs: string[] = [];
    mockApi({
      "/v1/me": () => jsonResponse(buildMe()),
      "/v1/setting": () => jsonResponse([setting]),
      "/v1/setting/7/run": (url) => {
        runs.push(url.pathname);
        return jsonResponse(
          {
            slotAt: "2026-11-29T01:00:00.000Z",
            kind: "manual",
            outcome: "launched",
            message: null,
            buildId: "5",
            testRunKey: "ui-run-5",
            buildStatus: "IN_PROGRESS",
            rerunBuildId: null,
            rerunMessage: null,
            notifyState: null,
            notifyMessage: null,
          },
          201,
        );
      },
    });
    renderUi(<DailyRunSchedulerPage />, { path: "/settings" });
    const row = within(await screen.findByRole("row", { name: /Weekly/ }, { timeout: 30_000 }));
    const runNow = row.getByRole("button", { name: "Run now" });
    await waitFor(() => expect(runNow).toBeEnabled(), { timeout: 30_000 });
    await userEvent.click(runNow);
    let question = await screen.findByRole("dialog", { name: "Run “Weekly” now?" });
    expect(question).toHaveTextContent(
      "It starts its Frontend build (run_all on dev1.example.com, branch master) now",
    );
    await userEvent.click(within(question).getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(runs).toEqual([]);

    await userEvent.click(runNow);
    question = await screen.findByRole("dialog", { name: "Run “Weekly” now?" });
    await userEvent.click(within(question).getByRole("button", { name: "Run now" }));
    await waitFor(() => expect(runs).toEqual(["/v1/setting/7/run"]));
  });
});
