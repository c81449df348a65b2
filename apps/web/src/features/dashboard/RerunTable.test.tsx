import type { DailyRun } from "@assay/core";
import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { renderUi } from "../../test/render-ui";
import { RerunTable } from "./RerunTable";

/** Issue 32 items 13 and 5: each row links to its run by name and URL, paged; Unstable apart. */

function run(n: number): DailyRun {
  const at = `2026-03-${String((n % 28) + 1).padStart(2, "0")}T02:00:00.000Z`;
  return {
    key: `rerun-${n}`,
    name: `Nightly rerun ${n}`,
    executor: "daily automatic rerun-failed executor",
    url: null,
    createdAt: at,
    total: 10,
    passed: 6,
    failed: 3,
    unstable: 1,
    skipped: 0,
  };
}

const list = (count: number) => ({
  executor: "daily automatic rerun-failed executor",
  targets: ["dev.legacy.example.com"],
  runs: Array.from({ length: count }, (_, i) => run(i + 1)),
});

describe("RerunTable", { timeout: 20_000 }, () => {
  it("links each row to its run: the run's name and its address, not a dash", () => {
    renderUi(<RerunTable list={list(2)} family="frontend" height={500} />);
    const table = screen.getByRole("table", { name: "Daily rerun-failed runs" });
    const first = within(table).getAllByRole("row")[1]!;
    expect(within(first).getByRole("link", { name: "Nightly rerun 1" })).toHaveAttribute(
      "href",
      "/test_runs/rerun-1",
    );
    const address = within(first).getByRole("link", { name: "Open run rerun-1" });
    expect(address).toHaveAttribute("href", "/test_runs/rerun-1");
    expect(address.textContent).toMatch(/\/test_runs\/rerun-1$/);
    expect(first.textContent).not.toContain("–");
    const cells = within(first)
      .getAllByRole("cell")
      .map((cell) => cell.textContent);
    expect(cells.slice(-2)).toEqual(["3", "1"]);
  });

  it("pages the runs, 15 a page, like the other tables", async () => {
    renderUi(<RerunTable list={list(20)} family="frontend" height={500} />);
    const table = screen.getByRole("table", { name: "Daily rerun-failed runs" });
    expect(within(table).getAllByRole("row")).toHaveLength(16);
    expect(screen.getByText("1–15 of 20")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Go to next page" }));
    expect(within(table).getAllByRole("row")).toHaveLength(6);
    expect(screen.getByRole("link", { name: "Nightly rerun 16" })).toBeInTheDocument();
  });
});
