import { configure, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { FailureGroupList, RunFailureGroup } from "@assay/core";
import { jsonResponse, mockApi } from "../../test/mock-api";
import { renderUi } from "../../test/render-ui";
import { FailuresPage } from "./FailuresPage";
import { ResultCause } from "./ResultCause";
import { TriageBoxes } from "./TriageBoxes";

configure({ asyncUtilTimeout: 5000 });

const DEFAULT = { comment: "", bugs: [], decidedBy: null, decidedAt: null, evidence: null };
const threeDaysAgo = new Date(Date.now() - 3 * 86_400_000 - 60_000).toISOString();

const GROUPS: RunFailureGroup[] = [
  {
    id: 7,
    fingerprint: "aaaa000011112222",
    errorType: "AssertionError",
    message: "expected <n> but got <n> for /api/orders/<n>",
    frame: "OrderClient.fetch",
    count: 13,
    toInvestigate: 0,
    tests: Array.from({ length: 13 }, (_, i) => 100 + i),
    results: Array.from({ length: 13 }, (_, i) => ({
      id: 1000 + i,
      testId: 100 + i,
      type: "product_bug" as const,
      auto: true,
    })),
    isNew: false,
    isRegression: false,
    firstSeen: { runKey: "nightly-40", at: threeDaysAgo },
    defect: { type: "product_bug", auto: true, ...DEFAULT },
  },
  {
    id: 8,
    fingerprint: "bbbb000011112222",
    errorType: "TimeoutError",
    message: "Timed out after <duration> waiting for #ship",
    frame: null,
    count: 2,
    toInvestigate: 2,
    tests: [200, 201],
    results: [
      { id: 2000, testId: 200, type: "to_investigate", auto: false },
      { id: 2001, testId: 201, type: "to_investigate", auto: false },
    ],
    isNew: true,
    isRegression: false,
    firstSeen: { runKey: "nightly-42", at: new Date().toISOString() },
    defect: { type: "to_investigate", auto: false, ...DEFAULT },
  },
];

describe("triage in the results dialogs", { timeout: 20_000 }, () => {
  it("shows New, Known and To investigate from the run's failure groups", async () => {
    mockApi({ "/v1/runs/nightly-42/failure-groups": () => jsonResponse(GROUPS) });
    renderUi(<TriageBoxes runKey="nightly-42" />);
    const fresh = await screen.findByRole("region", { name: "New" });
    expect(fresh.textContent).toContain("2");
    expect(fresh.textContent).toContain("1 cause first seen in this run");
    expect(screen.getByRole("region", { name: "Known" }).textContent).toContain("13");
    expect(screen.getByRole("region", { name: "To investigate" }).textContent).toContain(
      "of 15 failures in 2 causes",
    );
  });

  it("a card shows its type chip and its cause: others in the run, first seen when and where", async () => {
    mockApi({ "/v1/runs/nightly-42/failure-groups": () => jsonResponse(GROUPS) });
    renderUi(<ResultCause runKey="nightly-42" resultId={1003} />);
    const cause = await screen.findByTestId("result-cause");
    expect(within(cause).getByText("Product bug (auto)")).toBeVisible();
    expect(cause.textContent).toContain(
      "Same cause as 12 others in this run; first seen 3 days ago in run nightly-40",
    );
    expect(within(cause).getByRole("link", { name: "cause" })).toHaveAttribute(
      "href",
      "/failures/7",
    );
  });
});

describe("the Failures screen", { timeout: 20_000 }, () => {
  it("lists the groups of the last 7 days, most occurrences first, each linked to its page", async () => {
    const list: FailureGroupList = {
      since: "2026-11-22T00:00:00.000Z",
      groups: [
        {
          id: 7,
          fingerprint: "aaaa000011112222",
          errorType: "AssertionError",
          message: "expected <n> but got <n> for /api/orders/<n>",
          count: 40,
          runs: 6,
          tests: 13,
          toInvestigate: 0,
          firstSeen: { runKey: "nightly-40", at: threeDaysAgo },
          lastSeenAt: new Date().toISOString(),
          trend: Array.from({ length: 30 }, (_, i) => ({ day: `d${i}`, count: i % 3 })),
        },
      ],
    };
    const fetchMock = mockApi({ "/v1/failure-groups": () => jsonResponse(list) });
    renderUi(<FailuresPage />, { path: "/failures" });
    const link = await screen.findByRole("link", {
      name: "expected <n> but got <n> for /api/orders/<n>",
    });
    expect(link).toHaveAttribute("href", "/failures/7");
    const asked = new URL(String(fetchMock.mock.calls[0]?.[0]), "http://x");
    const since = new Date(`${asked.searchParams.get("since")}T00:00:00Z`).getTime();
    expect(Math.round((Date.now() - since) / 86_400_000)).toBeGreaterThanOrEqual(7);
    const row = link.closest("tr");
    expect(row?.textContent).toContain("3 days ago");
  });
});
