import type { Setting } from "@assay/core";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { renderUi } from "../../test/render-ui";
import { SettingRow } from "./SettingRow";

/** Issue 32 item 17: a schedule's last build status in words, as the builds list shows it. */

const SETTING: Setting = {
  id: 3,
  name: "Nightly UI",
  description: "",
  isActive: 1,
  cron: "0 2 * * *",
  timeZone: "UTC",
  template: { family: "frontend", region: "US", payload: { nora_site: "dev.example.com" } },
  rerunFailures: false,
  webhook: null,
  scheduleText: "At 02:00 AM (UTC)",
  nextRuns: [],
  recentSlots: [
    {
      slotAt: "2026-11-28T02:00:00Z",
      kind: "scheduled",
      outcome: "launched",
      message: null,
      buildId: "42",
      testRunKey: "ui-42",
      buildStatus: "IN_PROGRESS",
      rerunBuildId: null,
      rerunMessage: null,
      notifyState: null,
      notifyMessage: null,
    },
  ],
  createdBy: "qa@example.com",
  updatedBy: "qa@example.com",
  updatedAt: "2026-11-27T10:00:00Z",
};

describe("SettingRow", () => {
  it("says the last build's status in words, not IN_PROGRESS", () => {
    const noop = () => undefined;
    renderUi(
      <Table>
        <TableBody>
          <SettingRow
            setting={SETTING}
            signedIn
            busy={false}
            onEdit={noop}
            onDelete={noop}
            onRunNow={noop}
          />
        </TableBody>
      </Table>,
    );
    expect(screen.getByRole("link", { name: "Build 42: In progress" })).toBeInTheDocument();
    expect(screen.queryByText(/IN_PROGRESS/)).toBeNull();
  });
});
