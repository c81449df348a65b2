import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { renderUi } from "../../../test/render-ui";
import { ResultsSummary } from "./ResultsSummary";

describe("ResultsSummary", () => {
  it("offers the run's one-file report as a download", () => {
    renderUi(
      <ResultsSummary
        runKey="nightly 7"
        runName="nightly 7"
        place={null}
        counts={{ total: 3, passed: 2, failed: 1, skipped: 0, unstable: 0 } as never}
        wallClockMs={1000}
        testTimeMs={900}
        groups={[]}
        hidden={new Set()}
        onHidden={() => undefined}
      />,
    );
    const link = screen.getByRole("link", { name: "Download report" });
    expect(link).toHaveAttribute("href", "/v1/test-runs/nightly%207/report.html");
    expect(link).toHaveAttribute("download");
  });
});
