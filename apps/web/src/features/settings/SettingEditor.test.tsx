import type { Setting } from "@assay/core";
import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { renderUi } from "../../test/render-ui";
import { SettingEditor } from "./SettingEditor";

// userEvent in jsdom is slow on a busy machine: as long as the other dialog tests.
vi.setConfig({ testTimeout: 90_000 });

/** Picks `option` in the editor's select labelled `label`. */
async function choose(label: string, option: string) {
  await userEvent.click(screen.getByRole("combobox", { name: label }));
  await userEvent.click(within(screen.getByRole("listbox")).getByRole("option", { name: option }));
}

describe("SettingEditor", () => {
  it("saves each choice as its own value: Is Active 0, a daily cron, the build's family and region", async () => {
    const onSave = vi.fn();
    renderUi(
      <SettingEditor
        setting={null}
        saving={false}
        error={null}
        onSave={onSave}
        onCancel={vi.fn()}
      />,
    );
    await userEvent.type(screen.getByRole("textbox", { name: "Name" }), "Nightly");
    await choose("Is Active", "False");
    await choose("Runs", "Every day at");
    await choose("Build", "Backend");
    await choose("Region", "CHINA");
    await userEvent.click(screen.getByRole("button", { name: "Save" }));

    expect(onSave).toHaveBeenCalledWith(
      expect.objectContaining({
        name: "Nightly",
        isActive: 0,
        cron: "0 2 * * *",
        template: { family: "backend", region: "CHINA", payload: {} },
      }),
    );
  });

  it("shows a stored setting's choices", () => {
    const setting = {
      id: 7,
      name: "Weekly",
      description: "",
      isActive: 1,
      cron: "15 4 * * 1",
      timeZone: "UTC",
      template: { family: "load", region: "US", payload: {} },
      rerunFailures: false,
    } as unknown as Setting;
    renderUi(
      <SettingEditor
        setting={setting}
        saving={false}
        error={null}
        onSave={vi.fn()}
        onCancel={vi.fn()}
      />,
    );
    expect(screen.getByRole("combobox", { name: "Is Active" })).toHaveTextContent("True");
    expect(screen.getByRole("combobox", { name: "Runs" })).toHaveTextContent("Cron expression");
    expect(screen.getByRole("combobox", { name: "Build" })).toHaveTextContent("Load");
    expect(screen.getByRole("combobox", { name: "Region" })).toHaveTextContent("US");
  });
});
