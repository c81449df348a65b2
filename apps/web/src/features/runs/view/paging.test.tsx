import { BACKEND_VIEW_COLUMNS, type BackendRunView } from "@assay/core";
import { fireEvent, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BackendResultsDialog } from "../backend/BackendResultsDialog";
import { buildCatalog } from "../../../test/catalog-factory";
import { stubClientHeight } from "../../../test/layout-stub";
import { jsonResponse, mockApi } from "../../../test/mock-api";
import { renderUi } from "../../../test/render-ui";
import { buildBackendRun } from "../../../test/run-fixtures";
import { JUMP_SETTLE_MS } from "./use-run-view";
import { NEXT_PAGE_ROWS, pageOffset, rowKeyOf } from "./pages";

/*
 * The results list asks for the pages of the rows it shows, wherever they are: a jump from the
 * top to the end of 100,000 results fetches the first and the last pages, not the 333 between.
 * A generated run view answers (rows made from their index), and every request is counted.
 */

const TOTAL = 100_000;
// A closed row, as tall as BackendResultList estimates it.
const ROW_HEIGHT = 58;
const VIEWPORT = 800;
const catalog = buildCatalog();
const failedAt = (i: number) => i % 10 === 3;

/** GET /v1/api-test-run/big/view over TOTAL generated results, with Hide failed. */
function bigRunView(url: URL) {
  const hideFailed = url.searchParams.get("hide") === "failed";
  // With failed hidden, list index n is the n-th result that is not failed.
  const shown = hideFailed ? TOTAL - TOTAL / 10 : TOTAL;
  const resultAt = (n: number) =>
    hideFailed ? 10 * Math.floor(n / 9) + (n % 9 < 3 ? n % 9 : (n % 9) + 1) : n;
  const offset = Number(url.searchParams.get("offset"));
  const limit = Number(url.searchParams.get("limit"));
  const rows: BackendRunView["rows"] = [];
  for (let n = offset; n < Math.min(shown, offset + limit); n++) {
    const i = resultAt(n);
    const status = failedAt(i) ? "failed" : "passed";
    const name = `GET /items/${i}`;
    rows.push([i + 1, `case-${i}`, i + 1, name, name, null, status, 0, 10, null]);
  }
  const body: BackendRunView = {
    run: buildBackendRun({ test_run_key: "big", total: TOTAL, passed: 90_000, failed: 10_000 }),
    warnings: [],
    summary:
      url.searchParams.get("summary") === "false"
        ? null
        : {
            counts: { total: TOTAL, passed: 90_000, failed: 10_000, skipped: 0, unstable: 0 },
            failed_groups: [],
            tag_options: [],
          },
    total: TOTAL,
    shown,
    offset,
    limit,
    located: null,
    columns: [...BACKEND_VIEW_COLUMNS],
    rows,
  };
  return jsonResponse(body);
}

/** The view requests made, as "hide offset" strings. */
function mockBigRun() {
  const asked: string[] = [];
  mockApi({
    "/v1/catalog": () => jsonResponse(catalog),
    "/v1/api-test-run/big/view": (url) => {
      asked.push(`${url.searchParams.get("hide") ?? ""} ${url.searchParams.get("offset")}`);
      return bigRunView(url);
    },
  });
  return asked;
}

function restoreProperty(name: "offsetHeight" | "scrollHeight", height: number): () => void {
  const original = Object.getOwnPropertyDescriptor(HTMLElement.prototype, name);
  Object.defineProperty(HTMLElement.prototype, name, { configurable: true, get: () => height });
  return () => {
    if (original) Object.defineProperty(HTMLElement.prototype, name, original);
  };
}

const rowShown = (i: number) =>
  screen.queryByRole("article", { name: `TC${i + 1} GET /items/${i}` });
const feed = () => screen.getByRole("feed", { name: "Results" });

function jumpTo(index: number) {
  const scroller = feed();
  scroller.scrollTop = index * ROW_HEIGHT;
  fireEvent.scroll(scroller);
}

/** waitFor with room for a loaded machine: a jump waits JUMP_SETTLE_MS, then a request. */
const eventually = (check: () => void) => waitFor(check, { timeout: 10_000 });

/** jsdom has no element.scrollTo: this one scrolls as a browser's does, at once. */
function stubScrollTo(): () => void {
  const original = Object.getOwnPropertyDescriptor(HTMLElement.prototype, "scrollTo");
  HTMLElement.prototype.scrollTo = function scrollTo(this: HTMLElement, options?: unknown) {
    const top = (options as ScrollToOptions | undefined)?.top;
    if (top !== undefined) this.scrollTop = top;
    this.dispatchEvent(new Event("scroll"));
  } as HTMLElement["scrollTo"];
  return () => {
    if (original) Object.defineProperty(HTMLElement.prototype, "scrollTo", original);
    else delete (HTMLElement.prototype as Partial<HTMLElement>).scrollTo;
  };
}

/** The Backend results dialog of the generated run, opened at its URL. */
function openBigRun() {
  renderUi(<BackendResultsDialog runKey="big" open onClose={() => undefined} />, {
    path: "/test_runs/big?be=1",
    route: "/test_runs/:key?/:test_key?",
  });
}

let restore: (() => void)[] = [];
beforeAll(() => {
  // jsdom lays nothing out: the list's viewport and each row get a height.
  restore = [
    stubClientHeight(VIEWPORT),
    restoreProperty("offsetHeight", ROW_HEIGHT),
    // How far the list scrolls, which the virtualizer reads to go to the end.
    restoreProperty("scrollHeight", TOTAL * ROW_HEIGHT),
    stubScrollTo(),
  ];
});
afterAll(() => restore.forEach((undo) => undo()));

describe("a results list of 100,000", { timeout: 90_000 }, () => {
  it("fetches the pages shown when it jumps to the end, not every page between", async () => {
    const all = mockBigRun();
    // This list's own requests (every status shown), not those one click away (Hide failed).
    const own = () => all.filter((request) => request.startsWith(" "));
    openBigRun();
    await eventually(() => expect(rowShown(0)).not.toBeNull());
    // The first screen: the first page, and the next one if it nearly reaches it.
    await eventually(() => expect(own()[0]).toBe(" 0"));
    await new Promise((resolve) => setTimeout(resolve, JUMP_SETTLE_MS * 2));
    expect(
      own()
        .slice(1)
        .every((request) => request === ` ${pageOffset(1)}`),
    ).toBe(true);
    const opening = own().length;

    jumpTo(TOTAL - VIEWPORT / ROW_HEIGHT);
    await eventually(() => expect(rowShown(TOTAL - 1)).not.toBeNull());
    expect(feed()).toHaveAttribute("aria-busy", "false");
    // The last page and the one before (the rows just above the screen), nothing else.
    const end = own()
      .slice(opening)
      .map((request) => Number(request.split(" ")[1]));
    expect(end.length).toBeGreaterThanOrEqual(1);
    expect(end.length).toBeLessThanOrEqual(2);
    for (const offset of end) expect(offset).toBeGreaterThan(TOTAL - 2 * NEXT_PAGE_ROWS);

    // Then the middle: its pages only, once the list has stayed there.
    jumpTo(50_000);
    await eventually(() => expect(rowShown(50_000)).not.toBeNull());
    const middle = own().slice(opening + end.length);
    expect(middle.length).toBeGreaterThanOrEqual(1);
    expect(middle.length).toBeLessThanOrEqual(2);
    for (const request of middle) {
      expect(Math.abs(Number(request.split(" ")[1]) - 50_000)).toBeLessThan(NEXT_PAGE_ROWS * 2);
    }

    // Passing over the list on the way (a dragged scrollbar) fetches nothing on the way.
    const before = own().length;
    for (const index of [60_000, 70_000, 80_000]) jumpTo(index);
    jumpTo(90_000);
    await eventually(() => expect(rowShown(90_000)).not.toBeNull());
    await new Promise((resolve) => setTimeout(resolve, JUMP_SETTLE_MS * 2));
    const after = own()
      .slice(before)
      .map((request) => Number(request.split(" ")[1]));
    expect(after.length).toBeGreaterThanOrEqual(1);
    for (const offset of after) expect(Math.abs(offset - 90_000)).toBeLessThan(NEXT_PAGE_ROWS * 2);
  });

  it("goes to the last result with End and back to the first with Home", async () => {
    mockBigRun();
    openBigRun();
    await eventually(() => expect(rowShown(0)).not.toBeNull());
    fireEvent.keyDown(feed(), { key: "End" });
    await eventually(() => expect(rowShown(TOTAL - 1)).not.toBeNull());
    expect(rowShown(0)).toBeNull();
    fireEvent.keyDown(feed(), { key: "Home" });
    await eventually(() => expect(rowShown(0)).not.toBeNull());
  });

  it("asks a new filter for its first pages only, wherever the list was", async () => {
    const asked = mockBigRun();
    openBigRun();
    await eventually(() => expect(rowShown(0)).not.toBeNull());
    jumpTo(TOTAL - VIEWPORT / ROW_HEIGHT);
    await eventually(() => expect(rowShown(TOTAL - 1)).not.toBeNull());

    await userEvent.click(screen.getByRole("switch", { name: "Hide failed results" }));
    await eventually(() =>
      expect(screen.getByText(/Showing 90,000 of 100,000/)).toBeInTheDocument(),
    );
    await eventually(() => expect(rowShown(0)).not.toBeNull());
    expect(rowShown(3)).toBeNull();
    // Its first pages (the first one maybe before the click: it is one click away), no others.
    const hidden = asked
      .filter((request) => request.startsWith("failed "))
      .map((request) => Number(request.split(" ")[1]));
    expect(hidden).toEqual(expect.arrayContaining([0]));
    expect(Math.max(...hidden)).toBeLessThan(pageOffset(2));
  });

  it("has the first page one click away asked for once the list stays, so the switch waits for none", async () => {
    const asked = mockBigRun();
    openBigRun();
    await eventually(() => expect(rowShown(0)).not.toBeNull());
    await eventually(() => expect(asked).toContain("failed 0"));
    const before = asked.length;
    await userEvent.click(screen.getByRole("switch", { name: "Hide failed results" }));
    // Shown at once from the answer already in: no request for it after the click.
    expect(screen.getByText(/Showing 90,000 of 100,000/)).toBeInTheDocument();
    expect(asked.slice(before)).not.toContain("failed 0");
  });
});

describe("the virtual list's row keys", () => {
  it("are the result's id once loaded, and a distinct negative number before", () => {
    const loaded = new Map([
      [0, { id: 1 }],
      [2, { id: 70_001 }],
    ]);
    const keyOf = rowKeyOf((index) => loaded.get(index));
    const keys = [0, 1, 2, 3, 99_999].map(keyOf);
    expect(keys).toEqual([1, -2, 70_001, -4, -100_000]);
  });
});
