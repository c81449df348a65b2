import type { TraceabilityRow } from "@assay/core";
import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { renderUi } from "../../test/render-ui";
import { TestRunsCell } from "./TestRunsCell";

vi.setConfig({ testTimeout: 60_000 });

const login = (testId: number, suite: string, file: string) => ({
  testId,
  name: "Patient login",
  filePath: file,
  suitePath: ["Login", suite],
  status: "passed" as const,
  errorMessage: null,
});

const row: TraceabilityRow = {
  rmsDetail: {
    id: 1,
    rms: "RMS-9102",
    summary: "Patients sign in",
    epic: "Access",
    type: "Story",
    note: "",
    noTestNeeded: 0,
  },
  testRuns: [
    login(9101, "Patient app", "features/patient/login.feature"),
    login(9102, "Staff portal", "features/staff/login.feature"),
  ],
  linkedBugs: [],
};

describe("TestRunsCell", () => {
  it("tells same-named tests apart by their suite path and file", async () => {
    renderUi(<TestRunsCell row={row} repositoryUrl={undefined} onHistory={vi.fn()} />);
    await userEvent.click(screen.getByRole("button", { name: "Show tests" }));
    const items = screen.getAllByRole("listitem");
    // Each item: the status icon's word, the id, the suite path and name, then the file.
    expect(items.map((item) => item.textContent)).toEqual([
      "passedTC9101Login › Patient app › Patient loginfeatures/patient/login.feature",
      "passedTC9102Login › Staff portal › Patient loginfeatures/staff/login.feature",
    ]);
    expect(within(items[1]!).getByText("features/staff/login.feature")).toBeVisible();
  });
});
