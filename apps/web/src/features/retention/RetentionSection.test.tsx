import type { RetentionStatus } from "@assay/core";
import { screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { jsonResponse, mockApi } from "../../test/mock-api";
import { renderUi } from "../../test/render-ui";
import { RetentionSection } from "./RetentionSection";

vi.setConfig({ testTimeout: 90_000 });

const STATUS: RetentionStatus = {
  policy: {
    schedule: "30 3 * * *",
    default: { passedDetailsDays: 90, failedDetailsDays: 180, runsDays: 400, failuresDays: 800 },
    rules: [
      {
        family: null,
        branch: "release/*",
        passedDetailsDays: null,
        failedDetailsDays: null,
        runsDays: 800,
        failuresDays: null,
      },
    ],
  },
  lastPass: {
    id: 4,
    trigger: "nightly",
    state: "finished",
    startedAt: "2026-11-28T03:30:00.000Z",
    finishedAt: "2026-11-28T03:41:00.000Z",
    runs: 2,
    results: 20_000,
    stepsTrimmed: 15,
    attachments: 1,
    partitions: ["results_p202501"],
    bytesFreed: 3 * 1024 ** 3,
    objectBytesFreed: 1536,
    databaseBytesBefore: 7 * 1024 ** 3,
    databaseBytesAfter: 4 * 1024 ** 3,
    message: null,
  },
};

describe("RetentionSection", () => {
  it("shows each period per rule (a rule's gaps from the default) and what the last pass removed", async () => {
    mockApi({ "/v1/retention": () => jsonResponse(STATUS) });
    renderUi(<RetentionSection />);
    const table = await screen.findByRole("table", { name: "Retention policy" });
    const rows = within(table)
      .getAllByRole("row")
      .map((row) => row.textContent);
    expect(rows).toEqual([
      "KeptAll other runsruns on branch release/*",
      "Passed results' steps and attachments90 days90 days",
      "Failed results' steps and attachments180 days180 days",
      "Passed results (runs without failures go whole)400 days800 days",
      "Failures and their runs800 days800 days",
    ]);
    const last = screen.getByLabelText("Last retention pass");
    expect(last).toHaveTextContent("Finished");
    expect(last).toHaveTextContent("2026-11-28 03:30 UTC · nightly pass");
    expect(last).toHaveTextContent(
      "Removed 2 whole runs, 20,000 results, the steps of 15 results, 1 attachment, 1 monthly partition.",
    );
    expect(last).toHaveTextContent(
      "That is about 3.0 GiB of rows and indexes, space PostgreSQL reuses for new results (a dropped month returns its disk at once). Database 7.0 GiB before the pass, 4.0 GiB after. 1.5 KiB of object storage returned.",
    );
  });

  it("says that nothing is removed without a policy", async () => {
    mockApi({ "/v1/retention": () => jsonResponse({ policy: null, lastPass: null }) });
    renderUi(<RetentionSection />);
    expect(
      await screen.findByText(/No retention policy: nothing is ever removed/),
    ).toBeInTheDocument();
  });
});
