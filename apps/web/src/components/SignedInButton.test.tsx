import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { buildMe } from "../test/me-factory";
import { errorResponse, jsonResponse, mockApi } from "../test/mock-api";
import { renderUi } from "../test/render-ui";
import { SignedInButton } from "./SignedInButton";

function renderButton(onClick = vi.fn()) {
  renderUi(
    <SignedInButton tooltip="Create new build" onClick={onClick}>
      New Build
    </SignedInButton>,
  );
  return onClick;
}

describe("SignedInButton", { timeout: 30_000 }, () => {
  it("is disabled with the tooltip 'Please sign in' when signed out", async () => {
    mockApi({ "/v1/me": () => errorResponse(401, "unauthorized", "Sign in first.") });
    const onClick = renderButton();
    const button = screen.getByRole("button", { name: "New Build" });
    expect(button).toBeDisabled();
    await userEvent.hover(button.parentElement as HTMLElement);
    expect(await screen.findByRole("tooltip")).toHaveTextContent("Please sign in");
    expect(onClick).not.toHaveBeenCalled();
  });

  it("works, with its own tooltip, once signed in", async () => {
    mockApi({ "/v1/me": () => jsonResponse(buildMe()) });
    const onClick = renderButton();
    const button = screen.getByRole("button", { name: "New Build" });
    await vi.waitFor(() => expect(button).toBeEnabled());
    await userEvent.hover(button);
    expect(await screen.findByRole("tooltip")).toHaveTextContent("Create new build");
    await userEvent.click(button);
    expect(onClick).toHaveBeenCalledTimes(1);
  });

  it("stays disabled when its owner disables it, even signed in", async () => {
    mockApi({ "/v1/me": () => jsonResponse(buildMe()) });
    renderUi(
      <>
        <SignedInButton>New Build</SignedInButton>
        <SignedInButton disabled>Rerun</SignedInButton>
      </>,
    );
    await vi.waitFor(() => expect(screen.getByRole("button", { name: "New Build" })).toBeEnabled());
    expect(screen.getByRole("button", { name: "Rerun" })).toBeDisabled();
  });
});
