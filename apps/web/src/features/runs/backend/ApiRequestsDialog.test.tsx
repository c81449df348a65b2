import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stubClientHeight } from "../../../test/layout-stub";
import { errorResponse, jsonResponse, mockApi } from "../../../test/mock-api";
import { renderUi } from "../../../test/render-ui";
import { buildApiRequests } from "../../../test/run-fixtures";
import { ApiRequestsDialog } from "./ApiRequestsDialog";
import { API_ROW_HEIGHT } from "./ApiRequestsTable";

const TOTAL = 12_345;
const VIEWPORT = 500;

let restoreLayout: () => void;
beforeAll(() => {
  restoreLayout = stubClientHeight(VIEWPORT);
});
afterAll(() => restoreLayout());

/** The server's api-log: pages of the run's TOTAL requests. */
function mockLog() {
  const asked: string[] = [];
  const fetchMock = mockApi({
    "/v1/api-test-run/api-log/api-run-1": (url) => {
      asked.push(url.search);
      const page = Number(url.searchParams.get("page"));
      const size = Number(url.searchParams.get("page_size"));
      const from = (page - 1) * size;
      const count = Math.max(0, Math.min(size, TOTAL - from));
      return jsonResponse({
        items: buildApiRequests(count, from),
        total: TOTAL,
        page,
        page_size: size,
      });
    },
  });
  return { fetchMock, asked };
}

function renderDialog() {
  return renderUi(<ApiRequestsDialog runKey="api-run-1" open onClose={() => undefined} />);
}

const dataRows = () =>
  within(screen.getByRole("table", { name: "API requests" }))
    .getAllByRole("row")
    .filter((row) => row.hasAttribute("aria-rowindex"));

// MUI menus and a 10,000-row page make these slower than most under a loaded CI machine.
describe("ApiRequestsDialog", { timeout: 30_000 }, () => {
  it("shows a skeleton while the first page loads", () => {
    mockApi({ "/v1/api-test-run/api-log/api-run-1": () => new Promise<Response>(() => undefined) });
    renderDialog();
    expect(screen.getByRole("dialog", { name: "API Requests · api-run-1" })).toBeInTheDocument();
    expect(screen.getByLabelText("Loading API requests")).toBeInTheDocument();
  });

  it("says 'Error occurred fetching results' when the log cannot be read", async () => {
    mockApi({
      "/v1/api-test-run/api-log/api-run-1": () => errorResponse(404, "not_found", "No run."),
    });
    renderDialog();
    expect(await screen.findByText("Error occurred fetching results")).toBeInTheDocument();
  });

  it("says so when the run recorded no requests", async () => {
    mockApi({
      "/v1/api-test-run/api-log/api-run-1": () =>
        jsonResponse({ items: [], total: 0, page: 1, page_size: 100 }),
    });
    renderDialog();
    expect(await screen.findByText("This run recorded no API requests.")).toBeInTheDocument();
  });

  it("shows Method, URL, Status and Response Time (ms), 100 a page by default", async () => {
    const { asked } = mockLog();
    renderDialog();
    await screen.findByRole("table", { name: "API requests" });
    expect(asked).toEqual(["?page=1&page_size=100"]);
    const header = within(screen.getByRole("table")).getAllByRole("columnheader");
    expect(header.map((cell) => cell.textContent)).toEqual([
      "Method",
      "URL",
      "Status",
      "Response Time (ms)",
    ]);
    expect(dataRows()[0]?.textContent).toBe("GET/v1/items/120010");
    expect(
      screen.getByText(`1–100 of ${TOTAL.toLocaleString("en-US")}`, { exact: false }),
    ).toBeInTheDocument();
  });

  it("offers the page sizes 100, 1000 and 10000 and pages through the log", async () => {
    const { asked } = mockLog();
    renderDialog();
    await screen.findByRole("table", { name: "API requests" });

    await userEvent.click(screen.getByRole("combobox"));
    const options = screen.getAllByRole("option").map((option) => option.textContent);
    expect(options).toEqual(["100", "1000", "10000"]);
    await userEvent.click(screen.getByRole("option", { name: "1000" }));
    await waitFor(() => expect(asked.at(-1)).toBe("?page=1&page_size=1000"));

    await userEvent.click(screen.getByRole("button", { name: "Go to next page" }));
    await waitFor(() => expect(asked.at(-1)).toBe("?page=2&page_size=1000"));
    await waitFor(() => expect(dataRows()[0]?.textContent).toContain("/v1/items/1001"));
  });

  it("renders only a window of rows at 10,000 a page, and follows the scroll", async () => {
    const { asked } = mockLog();
    renderDialog();
    await screen.findByRole("table", { name: "API requests" });
    await userEvent.click(screen.getByRole("combobox"));
    await userEvent.click(screen.getByRole("option", { name: "10000" }));
    await waitFor(() => expect(asked.at(-1)).toBe("?page=1&page_size=10000"));
    await waitFor(() =>
      expect(screen.getByRole("table")).toHaveAttribute("aria-rowcount", "10001"),
    );

    const rendered = dataRows();
    expect(rendered.length).toBeGreaterThan(VIEWPORT / API_ROW_HEIGHT);
    expect(rendered.length).toBeLessThan(60);
    expect(rendered[0]).toHaveTextContent("/v1/items/1");

    const scroller = screen.getByTestId("api-requests-scroll");
    scroller.scrollTop = 5_000 * API_ROW_HEIGHT;
    fireEvent.scroll(scroller);
    await waitFor(() =>
      expect(dataRows().some((row) => row.textContent?.includes("/v1/items/5001"))).toBe(true),
    );
    expect(dataRows().length).toBeLessThan(60);
    expect(screen.queryByText("/v1/items/1")).toBeNull();
  });

  it("moves by its title's drag handle and by the arrow keys", async () => {
    mockLog();
    renderDialog();
    await screen.findByRole("table", { name: "API requests" });
    const paper = screen.getByRole("dialog");
    const handle = screen.getByTestId("api-requests-drag-handle");

    fireEvent.pointerDown(handle, { button: 0, clientX: 100, clientY: 100, pointerId: 1 });
    fireEvent.pointerMove(handle, { clientX: 160, clientY: 130, pointerId: 1 });
    fireEvent.pointerUp(handle, { pointerId: 1 });
    expect(paper).toHaveStyle({ transform: "translate(60px, 30px)" });

    // After the pointer is released, moving it does nothing.
    fireEvent.pointerMove(handle, { clientX: 400, clientY: 400, pointerId: 1 });
    expect(paper).toHaveStyle({ transform: "translate(60px, 30px)" });

    const grip = screen.getByRole("button", { name: "Move the dialog (arrow keys)" });
    grip.focus();
    await userEvent.keyboard("{ArrowLeft}{ArrowDown}");
    expect(paper).toHaveStyle({ transform: "translate(40px, 50px)" });
  });
});
