import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { Clipped } from "./TableCells";

describe("Clipped", () => {
  it("lets words take the lines it is given, and keeps a value without a space on one", () => {
    render(
      <>
        <Clipped value="daily automatic rerun-failed executor" width={165} lines={2} />
        <Clipped value="priya.nair@example.com" width={165} lines={2} />
        <Clipped value="daily robot executor" width={165} />
      </>,
    );
    const named = getComputedStyle(screen.getByText("daily automatic rerun-failed executor"));
    expect(named.whiteSpace).not.toBe("nowrap");
    expect(named.getPropertyValue("-webkit-line-clamp")).toBe("2");
    expect(getComputedStyle(screen.getByText("priya.nair@example.com")).whiteSpace).toBe("nowrap");
    expect(getComputedStyle(screen.getByText("daily robot executor")).whiteSpace).toBe("nowrap");
  });
});
