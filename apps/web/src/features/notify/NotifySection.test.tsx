import type { NotifyRule, NotifyRuleList } from "@assay/core";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { buildMe } from "../../test/me-factory";
import { jsonResponse, mockApi } from "../../test/mock-api";
import { renderUi } from "../../test/render-ui";
import { NotifySection } from "./NotifySection";

vi.setConfig({ testTimeout: 90_000 });

const SLACK_RULE: NotifyRule = {
  id: 3,
  name: "UI main failures",
  channel: "slack",
  when: "failure",
  filters: { family: "frontend", branch: "main" },
  isActive: true,
  email: null,
  hasSecret: true,
  target: "https://hooks.slack.com/…",
  source: "screen",
  updatedBy: "lead@example.com",
  updatedAt: "2026-11-28T10:00:00.000Z",
  deliveries: [
    {
      runKey: "n-2",
      runName: "Nightly 2",
      state: "failed",
      attempts: 6,
      message: "the receiver answered HTTP 503",
      at: "2026-11-28T10:00:00.000Z",
    },
    {
      runKey: "n-1",
      runName: "Nightly 1",
      state: "sent",
      attempts: 1,
      message: "HTTP 200",
      at: "2026-11-27T10:00:00.000Z",
    },
  ],
};

function serve(admin: boolean, list: NotifyRuleList) {
  const sent: { method?: string; body: unknown }[] = [];
  mockApi({
    "/v1/me": () => jsonResponse(buildMe({ admin })),
    "/v1/notify/rules": (_url, init) => {
      if (init?.method === "POST") {
        sent.push({ method: init.method, body: JSON.parse(String(init.body)) as unknown });
        return jsonResponse(SLACK_RULE, 201);
      }
      return jsonResponse(list);
    },
    "/v1/notify/rules/3": (_url, init) => {
      sent.push({ method: init?.method, body: JSON.parse(String(init?.body)) as unknown });
      return jsonResponse(SLACK_RULE);
    },
  });
  return sent;
}

describe("Notifications on the Setting screen", () => {
  it("lists each rule with where, when, which runs and its last delivery in words", async () => {
    serve(false, { rules: [SLACK_RULE] });
    renderUi(<NotifySection />);
    const table = await screen.findByRole("table", { name: "Notifications" });
    const [row] = within(table).getAllByRole("row").slice(1);
    expect(row).toHaveTextContent("UI main failures");
    expect(row).toHaveTextContent("Slackhttps://hooks.slack.com/…");
    expect(row).toHaveTextContent("On failure");
    expect(row).toHaveTextContent("family frontend, branch main");
    expect(row).toHaveTextContent("FailedNightly 2 · the receiver answered HTTP 503");
    // Not an administrator: nothing to change.
    expect(screen.getByRole("button", { name: "Add notification" })).toBeDisabled();
    expect(within(row!).getByRole("button", { name: "Edit" })).toBeDisabled();
  });

  it("adds an email rule with its recipients and password, and offers new failures", async () => {
    const sent = serve(true, { rules: [] });
    renderUi(<NotifySection />);
    await screen.findByText(/No notifications yet/);
    await userEvent.click(screen.getByRole("button", { name: "Add notification" }));
    await userEvent.type(screen.getByRole("textbox", { name: "Name" }), "Leads");
    await userEvent.click(screen.getByRole("combobox", { name: "Send to" }));
    await userEvent.click(
      within(screen.getByRole("listbox")).getByRole("option", { name: "Email" }),
    );
    await userEvent.click(screen.getByRole("combobox", { name: "When" }));
    // Triage's failure groups are always there: "on new failures" may be chosen.
    expect(
      within(screen.getByRole("listbox")).getByRole("option", { name: "On new failures" }),
    ).not.toHaveAttribute("aria-disabled");
    await userEvent.click(
      within(screen.getByRole("listbox")).getByRole("option", { name: "Every run" }),
    );
    await userEvent.type(screen.getByRole("textbox", { name: "SMTP host" }), "smtp.example.com");
    await userEvent.type(screen.getByLabelText("Password"), "pa55");
    await userEvent.type(screen.getByRole("textbox", { name: "From" }), "assay@example.com");
    await userEvent.type(
      screen.getByRole("textbox", { name: "To (comma-separated)" }),
      "a@example.com, b@example.com",
    );
    await userEvent.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]!.body).toEqual({
      name: "Leads",
      channel: "email",
      when: "always",
      filters: {},
      isActive: true,
      email: {
        host: "smtp.example.com",
        port: 587,
        secure: false,
        from: "assay@example.com",
        to: ["a@example.com", "b@example.com"],
      },
      secret: "pa55",
    });
  });

  it("keeps a stored webhook URL when the field is left empty", async () => {
    const sent = serve(true, { rules: [SLACK_RULE] });
    renderUi(<NotifySection />);
    await userEvent.click(await screen.findByRole("button", { name: "Edit" }));
    expect(screen.getByLabelText("Webhook URL")).toHaveValue("");
    await userEvent.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]!.method).toBe("PUT");
    expect(sent[0]!.body).not.toHaveProperty("secret");
  });
});
