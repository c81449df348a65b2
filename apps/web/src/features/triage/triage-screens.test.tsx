import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import type { FailureGroupList, RunFailureGroup } from "@assay/core";
import { jsonResponse, mockApi } from "../../test/mock-api";
import { buildMe } from "../../test/me-factory";
import { CauseFilters, groupLabels } from "./CauseFilters";
import { TestsDefectButton } from "./TestsDefectButton";
import { renderUi } from "../../test/render-ui";
import { FailuresPage } from "./FailuresPage";
import { ResultCause } from "./ResultCause";
import { TriageBoxes } from "./TriageBoxes";

const DEFAULT = { comment: "", bugs: [], decidedBy: null, decidedAt: null, evidence: null };
const CAUSE = { groupId: 7, type: "product_bug", auto: true, comment: "", bugs: ["NXL-1"] };
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
    const fetchMock = mockApi({
      "/v1/runs/nightly-42/failure-groups": () => jsonResponse(GROUPS),
      "/v1/runs/nightly-42/failure-causes": (url) =>
        jsonResponse(
          url.searchParams
            .get("ids")
            ?.split(",")
            .map(Number)
            .filter((id) => id !== 1005)
            .map((id) => ({ ...CAUSE, resultId: id })),
        ),
    });
    renderUi(
      <>
        <ResultCause runKey="nightly-42" resultId={1003} />
        <ResultCause runKey="nightly-42" resultId={1004} />
        <ResultCause runKey="nightly-42" resultId={1005} />
      </>,
    );
    const cause = (await screen.findAllByTestId("result-cause"))[0]!;
    // The page's cards ask once, together; a result triage did not group shows nothing.
    const asked = fetchMock.mock.calls
      .map(([input]) => new URL(String(input), "http://x"))
      .filter((url) => url.pathname.endsWith("/failure-causes"));
    expect(asked.map((url) => url.searchParams.get("ids"))).toEqual(["1003,1004,1005"]);
    expect(screen.getAllByTestId("result-cause")).toHaveLength(2);
    expect(within(cause).getByText("Product bug (auto)")).toBeVisible();
    expect(within(cause).getByLabelText("Bugs of the decision")).toHaveTextContent("NXL-1");
    expect(cause.textContent).toContain(
      "Same cause as 12 others in this run; first seen 3 days ago in run nightly-40",
    );
    expect(within(cause).getByRole("link", { name: "cause" })).toHaveAttribute(
      "href",
      "/failures/7",
    );
  });
});

describe("setting and filtering by cause", { timeout: 60_000 }, () => {
  it("the cause filters list the run's groups and the types, and say what was chosen", async () => {
    mockApi({ "/v1/runs/nightly-42/failure-groups": () => jsonResponse(GROUPS) });
    const onChange = vi.fn();
    renderUi(
      <CauseFilters
        runKey="nightly-42"
        value={{ group: null, defect: null }}
        onChange={onChange}
      />,
    );
    await userEvent.click(await screen.findByRole("combobox", { name: "Failure group" }));
    await userEvent.click(
      await screen.findByRole("option", {
        name: "2 × Timed out after <duration> waiting for #ship",
      }),
    );
    expect(onChange).toHaveBeenLastCalledWith({ group: 8, defect: null });
    await userEvent.click(screen.getByRole("combobox", { name: "Defect type" }));
    await userEvent.click(await screen.findByRole("option", { name: "System issue" }));
    expect(onChange).toHaveBeenLastCalledWith({ group: null, defect: "system_issue" });
  });

  it("tells apart the options of two causes with one message by their type and frame", () => {
    const twin: RunFailureGroup = {
      ...GROUPS[0]!,
      id: 9,
      fingerprint: "cccc000011112222",
      errorType: "TimeoutError",
      frame: null,
      count: 1,
    };
    const labels = groupLabels([...GROUPS, twin]);
    expect(labels.get(7)).toBe(
      "13 × expected <n> but got <n> for /api/orders/<n> (AssertionError at OrderClient.fetch)",
    );
    expect(labels.get(9)).toBe("1 × expected <n> but got <n> for /api/orders/<n> (TimeoutError)");
    expect(labels.get(8)).toBe("2 × Timed out after <duration> waiting for #ship");
  });

  it("the Failed Summary sets one type for a tag's failures: PUT with its tests", async () => {
    const sent: unknown[] = [];
    mockApi({
      "/v1/me": () => jsonResponse(buildMe()),
      "/v1/runs/nightly-42/defect": async (_url, init) => {
        sent.push(JSON.parse(String(init?.body)));
        return jsonResponse({
          updated: 2,
          defect: { type: "system_issue", auto: false, ...DEFAULT },
        });
      },
    });
    renderUi(
      <TestsDefectButton icon runKey="nightly-42" tests={[5, 9]} what="the failures of @login" />,
    );
    const open = await screen.findByRole("button", {
      name: "Set the defect type of the failures of @login",
    });
    await waitFor(() => expect(open).toBeEnabled());
    await userEvent.click(open);
    const dialog = await screen.findByRole("dialog");
    await userEvent.click(within(dialog).getByRole("combobox", { name: "Defect type" }));
    await userEvent.click(await screen.findByRole("option", { name: "System issue" }));
    await userEvent.type(within(dialog).getByRole("textbox", { name: "Bug keys" }), "ops-1, OPS-2");
    await userEvent.click(within(dialog).getByRole("button", { name: "Set for all" }));
    expect(await within(dialog).findByText("Recorded on 2 failures.")).toBeVisible();
    expect(sent).toEqual([
      { tests: [5, 9], type: "system_issue", comment: "", bugs: ["ops-1", "OPS-2"] },
    ]);
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
