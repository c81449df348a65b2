import type { Setting } from "@assay/core";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { buildCatalog } from "../../test/catalog-factory";
import { buildMe } from "../../test/me-factory";
import { jsonResponse, mockApi } from "../../test/mock-api";
import { renderUi } from "../../test/render-ui";
import { SettingEditor } from "./SettingEditor";

// userEvent in jsdom is slow on a busy machine: as long as the other dialog tests.
vi.setConfig({ testTimeout: 120_000 });

/** Picks `option` in the editor's select labelled `label`. */
async function choose(label: string, option: string) {
  await userEvent.click(screen.getByRole("combobox", { name: label }));
  await userEvent.click(within(screen.getByRole("listbox")).getByRole("option", { name: option }));
}

const catalog = buildCatalog();

function renderEditor(setting: Setting | null, onSave = vi.fn()) {
  mockApi({
    "/v1/catalog": () => jsonResponse(catalog),
    "/v1/me": () => jsonResponse(buildMe()),
    "/v1/dtag": () => jsonResponse({ byTag: {} }),
  });
  renderUi(
    <SettingEditor
      setting={setting}
      saving={false}
      error={null}
      onSave={onSave}
      onCancel={vi.fn()}
    />,
  );
  return onSave;
}

const stored = (template: unknown, isActive = 1) =>
  ({
    id: 7,
    name: "Weekly",
    description: "",
    isActive,
    cron: "15 4 * * 1",
    timeZone: "UTC",
    template,
    rerunFailures: false,
  }) as unknown as Setting;

describe("SettingEditor", () => {
  it("edits the build with its Create Build dialog's form and rules, not JSON", async () => {
    const onSave = renderEditor(null);
    expect(screen.queryByRole("textbox", { name: /payload/i })).toBeNull();
    await userEvent.type(screen.getByRole("textbox", { name: "Name" }), "Nightly");
    await choose("Is Active", "False");
    await choose("Runs", "Every day at");
    await choose("Build", "Backend");
    await userEvent.click(screen.getByRole("button", { name: "Choose build…" }));
    const dialog = within(await screen.findByRole("dialog", { name: "Schedule's build: Backend" }));
    // The dialog's own rules: an empty Env is refused there, in words.
    await userEvent.click(dialog.getByRole("button", { name: "Use this build" }));
    expect(dialog.getByRole("textbox", { name: "Env" })).toHaveAccessibleDescription(
      "Env is required.0 / 2,048",
    );
    await userEvent.type(dialog.getByRole("textbox", { name: "Env" }), "dev1");
    await userEvent.click(dialog.getByRole("button", { name: "Use this build" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(screen.getByText("Backend build (run_all on dev1, branch master)")).toBeVisible();
    expect(onSave).not.toHaveBeenCalled();

    await userEvent.click(screen.getByRole("button", { name: "Save" }));
    expect(onSave).toHaveBeenCalledWith(
      expect.objectContaining({
        name: "Nightly",
        isActive: 0,
        cron: "0 2 * * *",
        template: {
          family: "backend",
          region: "US",
          payload: { mode: "run_all", parallel_runners: 1, branch: "master", env: "dev1" },
        },
      }),
    );
  });

  it("refuses an active schedule without a build, saying what to do", async () => {
    const onSave = renderEditor(null);
    await userEvent.type(screen.getByRole("textbox", { name: "Name" }), "No build");
    await userEvent.click(screen.getByRole("button", { name: "Save" }));
    expect(await screen.findByRole("alert")).toHaveTextContent(
      /An active schedule needs a build \(Run now launches it\)/,
    );
    expect(onSave).not.toHaveBeenCalled();
  });

  it("opens a stored build in its dialog, filled in from it", async () => {
    renderEditor(
      stored({
        family: "frontend",
        region: "US",
        payload: {
          mode: "run_all",
          branch: "release/7",
          nora_site: catalog.sites.legacy[0]!.value,
          parallel_runners: 3,
          isNextGen: false,
        },
      }),
    );
    expect(screen.getByRole("combobox", { name: "Is Active" })).toHaveTextContent("True");
    expect(screen.getByRole("combobox", { name: "Runs" })).toHaveTextContent("Cron expression");
    expect(screen.getByRole("combobox", { name: "Build" })).toHaveTextContent("Frontend");
    await userEvent.click(screen.getByRole("button", { name: "Edit build…" }));
    const dialog = within(
      await screen.findByRole("dialog", { name: "Schedule's build: Frontend" }),
    );
    expect(dialog.getByRole("textbox", { name: "Branch" })).toHaveValue("release/7");
    expect(dialog.getByRole("combobox", { name: "Parallel Runners" })).toHaveTextContent("3");
  });

  it("shows each text field's limit and refuses a name over it in words", async () => {
    const onSave = renderEditor(null);
    const name = screen.getByRole("textbox", { name: "Name" });
    expect(screen.getByLabelText("0 of at most 200 characters")).toBeVisible();
    await userEvent.click(name);
    await userEvent.paste("n".repeat(201));
    expect(screen.getByText("The name can be at most 200 characters.")).toBeVisible();
    expect(screen.getByLabelText("201 of at most 200 characters")).toBeVisible();
    await userEvent.click(screen.getByRole("button", { name: "Save" }));
    expect(onSave).not.toHaveBeenCalled();
  });

  it("counts the webhook URL against its limit and does not save one over it", async () => {
    const onSave = renderEditor(null);
    await userEvent.type(screen.getByRole("textbox", { name: "Name" }), "Nightly");
    await userEvent.click(screen.getByRole("combobox", { name: "Notify" }));
    await userEvent.click(await screen.findByRole("option", { name: "Slack webhook" }));
    const url = screen.getByRole("textbox", { name: "Webhook URL" });
    expect(url).toHaveAccessibleDescription(/0 \/ 2,000$/);
    await userEvent.click(url);
    await userEvent.paste(`https://hooks.example.com/${"x".repeat(2000)}`);
    expect(url).toHaveAccessibleDescription(
      "The webhook URL can be at most 2,000 characters.2,026 / 2,000",
    );
    await userEvent.click(screen.getByRole("button", { name: "Save" }));
    expect(onSave).not.toHaveBeenCalled();
  });
});
