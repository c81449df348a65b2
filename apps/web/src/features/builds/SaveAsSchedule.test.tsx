import type { Setting, SettingBodyInput } from "@assay/core";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { buildPage } from "../../test/build-fixtures";
import { buildCatalog } from "../../test/catalog-factory";
import { buildMe } from "../../test/me-factory";
import { errorResponse, jsonResponse, mockApi } from "../../test/mock-api";
import { renderUi } from "../../test/render-ui";
import { BuildsPage } from "./BuildsPage";

// Two dialogs typed into: slow on a loaded machine (50 s seen under a load of 25).
vi.setConfig({ testTimeout: 150_000 });

/** 'Save as schedule' in the Create Build dialogs: the dialog's choices become a schedule. */

const catalog = buildCatalog();

function savedSetting(body: SettingBodyInput): Setting {
  return {
    id: 5,
    name: body.name.trim(),
    description: "",
    isActive: 1,
    cron: body.cron ?? null,
    timeZone: body.timeZone ?? "UTC",
    template: body.template ? { ...body.template, region: body.template.region ?? "US" } : null,
    rerunFailures: body.rerunFailures ?? false,
    webhook: null,
    scheduleText: `At 03:15 (${body.timeZone})`,
    nextRuns: [],
    recentSlots: [],
    createdBy: "qa@example.com",
    updatedBy: "qa@example.com",
    updatedAt: "2026-05-01T00:00:00.000Z",
  };
}

/** /builds on a tab with its dialog open; POSTs to /v1/setting and to build lists are kept. */
function open(tab: 0 | 1, answer?: (body: SettingBodyInput) => Response) {
  const settings: SettingBodyInput[] = [];
  const builds: unknown[] = [];
  const list = (_url: URL, init?: RequestInit) => {
    if (init?.method === "POST") builds.push(JSON.parse(String(init.body)));
    return jsonResponse(buildPage([]));
  };
  mockApi({
    "/v1/catalog": () => jsonResponse(catalog),
    "/v1/me": () => jsonResponse(buildMe()),
    "/v1/dtag": () => jsonResponse({ byTag: {} }),
    "/v1/builds": list,
    "/v1/api/builds": list,
    "/v1/setting": (_url, init) => {
      const body = JSON.parse(String(init?.body)) as SettingBodyInput;
      settings.push(body);
      return answer ? answer(body) : jsonResponse(savedSetting(body), 201);
    },
  });
  renderUi(<BuildsPage />, { path: `/builds?tab=${tab}&new=1` });
  return { settings, builds };
}

async function fillSchedule(name: string) {
  const form = within(await screen.findByRole("dialog", { name: "Save as schedule" }));
  await userEvent.type(form.getByRole("textbox", { name: "Schedule name" }), name);
  fireEvent.change(form.getByLabelText("Every day at"), { target: { value: "03:15" } });
  const zone = form.getByRole("textbox", { name: "Time zone" });
  await userEvent.clear(zone);
  await userEvent.type(zone, "Europe/Berlin");
  await userEvent.click(form.getByRole("button", { name: "Save schedule" }));
}

describe("Save as schedule", () => {
  it("saves the Frontend dialog's choices as a daily schedule, and creates no build", async () => {
    const { settings, builds } = open(0);
    const dialog = within(await screen.findByRole("dialog", { name: "Create Frontend Build" }));
    await userEvent.clear(dialog.getByRole("textbox", { name: "Branch" }));
    await userEvent.type(dialog.getByRole("textbox", { name: "Branch" }), "release/5.1");
    await userEvent.click(dialog.getByRole("button", { name: "Save as schedule" }));
    await fillSchedule("Nightly Legacy");
    await waitFor(() => expect(settings).toHaveLength(1));
    expect(settings[0]).toEqual({
      name: "Nightly Legacy",
      isActive: 1,
      cron: "15 3 * * *",
      timeZone: "Europe/Berlin",
      rerunFailures: true,
      template: {
        family: "frontend",
        region: "US",
        payload: {
          mode: "run_all",
          branch: "release/5.1",
          nora_site: catalog.sites.legacy[0]!.value,
          parallel_runners: 1,
          isNextGen: false,
        },
      },
    });
    expect(await screen.findByText(/Saved as schedule “Nightly Legacy”/)).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Open the Daily Run Scheduler" })).toHaveAttribute(
      "href",
      "/settings",
    );
    expect(builds).toHaveLength(0);
  });

  it("checks the dialog's rules first: a refused Backend form opens no schedule", async () => {
    const { settings } = open(1, () => errorResponse(400, "invalid_build", "env: Env is required"));
    const dialog = within(await screen.findByRole("dialog", { name: "Create Backend Build" }));
    await userEvent.click(dialog.getByRole("button", { name: "Save as schedule" }));
    expect(dialog.getByRole("textbox", { name: "Env" })).toHaveAttribute("aria-invalid", "true");
    expect(screen.queryByRole("dialog", { name: "Save as schedule" })).toBeNull();

    await userEvent.type(dialog.getByRole("textbox", { name: "Env" }), "dev1");
    await userEvent.click(dialog.getByRole("button", { name: "Save as schedule" }));
    // A name is required before anything is sent.
    const save = within(await screen.findByRole("dialog", { name: "Save as schedule" }));
    await userEvent.click(save.getByRole("button", { name: "Save schedule" }));
    expect(save.getByText("Name is required")).toBeInTheDocument();
    expect(settings).toHaveLength(0);
    // An emptied time is refused in words, not sent as midnight.
    fireEvent.change(save.getByLabelText("Every day at"), { target: { value: "" } });
    await userEvent.type(save.getByRole("textbox", { name: "Schedule name" }), "x");
    await userEvent.click(save.getByRole("button", { name: "Save schedule" }));
    expect(save.getByText("Enter the time it runs each day, e.g. 02:00.")).toBeInTheDocument();
    expect(settings).toHaveLength(0);
    await userEvent.clear(save.getByRole("textbox", { name: "Schedule name" }));

    await fillSchedule("API nightly");
    await waitFor(() => expect(settings).toHaveLength(1));
    expect(settings[0]?.template).toEqual({
      family: "backend",
      region: "US",
      payload: { mode: "run_all", parallel_runners: 1, branch: "master", env: "dev1" },
    });
    // The server's refusal is shown in the schedule dialog.
    expect(await save.findByText("env: Env is required")).toBeInTheDocument();
  });
});
