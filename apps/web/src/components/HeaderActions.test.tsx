import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { rememberCsrfToken } from "../api/client";
import { browser } from "../api/sign-in";
import { buildMe } from "../test/me-factory";
import { errorResponse, jsonResponse, mockApi } from "../test/mock-api";
import { renderUi } from "../test/render-ui";
import { HeaderActions } from "./HeaderActions";

afterEach(() => {
  rememberCsrfToken(null);
  vi.restoreAllMocks();
});

const renderHeader = (path = "/dashboard") => renderUi(<HeaderActions />, { path });

describe("the header's sign-in side", { timeout: 30_000 }, () => {
  it("offers Sign in when signed out, returning to the page the user is on", async () => {
    // The server answers who is signed in without an error: nobody.
    mockApi({ "/v1/me": () => jsonResponse({ signed_in: false }) });
    renderHeader("/test_runs/run-7/42?be=1");
    const signIn = await screen.findByRole("link", { name: "Sign in" });
    expect(signIn).toHaveAttribute(
      "href",
      `/auth/login?return_to=${encodeURIComponent("/test_runs/run-7/42?be=1")}`,
    );
  });

  it("takes a 401 from an older server as signed out too", async () => {
    mockApi({ "/v1/me": () => errorResponse(401, "unauthorized", "Sign in first.") });
    renderHeader();
    expect(await screen.findByRole("link", { name: "Sign in" })).toBeVisible();
  });

  it("marks the user signed out when the lookup fails for any reason (spec section 8)", async () => {
    mockApi({ "/v1/me": () => errorResponse(500, "internal_error", "Database unavailable.") });
    renderHeader();
    expect(await screen.findByRole("link", { name: "Sign in" })).toBeVisible();
    expect(screen.queryByText(/Hello/)).not.toBeInTheDocument();
  });

  it("greets the signed-in user by name, with initials for an avatar", async () => {
    mockApi({ "/v1/me": () => jsonResponse(buildMe({ name: "Quinn Analyst" })) });
    renderHeader();
    expect(await screen.findByText("Hello, Quinn Analyst")).toBeVisible();
    const account = screen.getByRole("button", { name: "Account menu" });
    expect(within(account).getByText("QA")).toBeVisible();
    expect(screen.queryByRole("link", { name: "Sign in" })).not.toBeInTheDocument();
  });

  it("shows the user's picture when there is one", async () => {
    mockApi({ "/v1/me": () => jsonResponse(buildMe({ picture: "/v1/objects/avatars/a.png" })) });
    renderHeader();
    const account = await screen.findByRole("button", { name: "Account menu" });
    expect(account.querySelector("img")).toHaveAttribute("src", "/v1/objects/avatars/a.png");
  });

  it("has a menu with Profile and Sign out; Profile opens the dialog", async () => {
    mockApi({ "/v1/me": () => jsonResponse(buildMe()) });
    renderHeader();
    await userEvent.click(await screen.findByRole("button", { name: "Account menu" }));
    const items = screen.getAllByRole("menuitem").map((item) => item.textContent);
    expect(items).toEqual(["Profile", "Sign out"]);
    await userEvent.click(screen.getByRole("menuitem", { name: "Profile" }));
    expect(await screen.findByRole("dialog", { name: "Profile" })).toBeVisible();
  });

  it("signs out with the CSRF token and follows the server to the provider's logout", async () => {
    const assign = vi.spyOn(browser, "assign").mockImplementation(() => undefined);
    const fetchMock = mockApi({
      "/v1/me": () => jsonResponse(buildMe({ csrf_token: "tok-7" })),
      "/auth/logout": () => jsonResponse({ redirect_to: "/oidc/session/end?id_token_hint=x" }),
    });
    renderHeader();
    await userEvent.click(await screen.findByRole("button", { name: "Account menu" }));
    await userEvent.click(screen.getByRole("menuitem", { name: "Sign out" }));

    await waitFor(() => expect(assign).toHaveBeenCalledWith("/oidc/session/end?id_token_hint=x"));
    const logout = fetchMock.mock.calls.find(([input]) => String(input) === "/auth/logout");
    expect(logout?.[1]?.method).toBe("POST");
    expect(logout?.[1]?.headers).toMatchObject({ "X-CSRF-Token": "tok-7" });
  });

  it("stays on the same page when the server ends only its own session (a DH host)", async () => {
    window.history.pushState(null, "", "/data?env=staging");
    const assign = vi.spyOn(browser, "assign").mockImplementation(() => undefined);
    mockApi({
      "/v1/me": () => jsonResponse(buildMe({ csrf_token: "tok-7" })),
      "/auth/logout": () => jsonResponse({ redirect_to: "/" }),
    });
    renderHeader("/data?env=staging");
    await userEvent.click(await screen.findByRole("button", { name: "Account menu" }));
    await userEvent.click(screen.getByRole("menuitem", { name: "Sign out" }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith("/data?env=staging"));
    window.history.pushState(null, "", "/");
  });
});
