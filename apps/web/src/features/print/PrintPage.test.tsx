import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { errorResponse, jsonResponse, mockApi, requestedPaths } from "../../test/mock-api";
import { renderUi } from "../../test/render-ui";
import { buildTestDetail } from "../../test/run-fixtures";
import { PrintPage } from "./PrintPage";

const XSS = "<img src=x onerror=alert(1)>";
const DETAIL_PATH = "/v1/test-detail/ui-run-1/login%230";

const steps = [
  {
    action: "Given I open the login page",
    passed: true,
    codeLocation: "login.steps.ts:4",
    duration_ms: 10,
  },
  { action: "When I sign in as a site user", passed: true, codeLocation: null, duration_ms: 10 },
  { action: "Then I see the home page", passed: false, codeLocation: null, duration_ms: 10 },
  { action: "And I open the diary", passed: null, codeLocation: null, duration_ms: null },
];

const shot = (id: number, step_index: number | null, description: string | null) => ({
  id,
  description,
  screenshotpath: `attachments/2026/05/shot-${id}.png`,
  timestamp: "2026-05-01T08:00:05.000Z",
  step_index,
  content_type: "image/png",
});

/** The page under its route; the bare layout around it is covered by routes.test.tsx. */
function renderPrint(path = "/print/ui-run-1/login%230") {
  return renderUi(<PrintPage />, { path, route: "/print/:key?/:test_key?" });
}

describe("PrintPage", { timeout: 20_000 }, () => {
  it("shows a spinner while the detail loads", () => {
    mockApi({ [DETAIL_PATH]: () => new Promise<Response>(() => undefined) });
    renderPrint();
    expect(
      screen.getByRole("progressbar", { name: "Loading the test detail" }),
    ).toBeInTheDocument();
  });

  it("says 'An error occurred fetching results' when the detail cannot be read", async () => {
    mockApi({ [DETAIL_PATH]: () => errorResponse(404, "not_found", "No test login#0.") });
    renderPrint();
    expect(await screen.findByText("An error occurred fetching results")).toBeInTheDocument();
  });

  it("says 'Nothing Found!' when the test has no screenshots", async () => {
    mockApi({ [DETAIL_PATH]: () => jsonResponse(buildTestDetail({ json_steps: steps })) });
    renderPrint();
    expect(await screen.findByText("Nothing Found!")).toBeInTheDocument();
    expect(screen.queryByRole("img")).toBeNull();
  });

  it("says 'Nothing Found!' without a run and test, and asks the server nothing", async () => {
    const fetchMock = mockApi({});
    renderPrint("/print");
    expect(await screen.findByText("Nothing Found!")).toBeInTheDocument();
    expect(requestedPaths(fetchMock)).toEqual([]);
  });

  it("shows each screenshot with its description and UTC time after the steps before it", async () => {
    mockApi({
      [DETAIL_PATH]: () =>
        jsonResponse(
          buildTestDetail({
            title: XSS,
            json_steps: steps,
            screenshots: [shot(1, 0, "Login page"), shot(2, 2, null)],
          }),
        ),
    });
    renderPrint();

    const first = await screen.findByRole("region", { name: "Screenshot 1" });
    expect(
      within(first)
        .getAllByRole("listitem")
        .map((li) => li.textContent),
    ).toEqual(["1.✓ passedGiven I open the login pagelogin.steps.ts:4"]);
    const image = within(first).getByRole("img", { name: "Login page" });
    expect(image).toHaveAttribute("src", "/v1/objects/attachments/2026/05/shot-1.png");
    expect(within(first).getByText("2026-05-01 08:00:05 UTC")).toBeInTheDocument();

    const second = screen.getByRole("region", { name: "Screenshot 2" });
    expect(
      within(second)
        .getAllByRole("listitem")
        .map((li) => li.textContent),
    ).toEqual(["2.✓ passedWhen I sign in as a site user", "3.✗ failedThen I see the home page"]);
    // Without a description the screenshot is named by its position.
    expect(within(second).getByRole("img", { name: "Screenshot 2" })).toBeInTheDocument();

    const after = screen.getByRole("region", { name: "Steps after the last screenshot" });
    expect(within(after).getByRole("listitem")).toHaveTextContent(
      "4.– not runAnd I open the diary",
    );

    // The test's name is text: the only images are the two screenshots.
    expect(screen.getByRole("heading", { level: 2 })).toHaveTextContent(`TC321 · ${XSS}`);
    expect(document.querySelectorAll("img")).toHaveLength(2);
  });

  it("keeps each screenshot on one page when printed, and the Print button off paper", async () => {
    mockApi({
      [DETAIL_PATH]: () =>
        jsonResponse(buildTestDetail({ json_steps: steps, screenshots: [shot(1, 1, "Home")] })),
    });
    renderPrint();
    const figure = (await screen.findByRole("img", { name: "Home" })).closest("figure");
    expect(figure).toHaveAttribute("data-print-figure");
    const css = [...document.querySelectorAll("style")].map((s) => s.textContent).join("\n");
    const printBlock = css.slice(css.indexOf("@media print{@page"));
    expect(printBlock).toMatch(/^@media print\{@page\{margin:12mm;\}/);
    expect(printBlock).toContain("[data-print-figure]{break-inside:avoid;");
    expect(screen.getByRole("button", { name: "Print" })).toBeInTheDocument();
  });
});
