import { waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { browser, signOut } from "../api/sign-in";
import { buildCatalog } from "../test/catalog-factory";
import { jsonResponse, mockApi } from "../test/mock-api";
import { renderApp } from "../test/render-app";

/**
 * Issue 32 item 17: signing out from /builds comes back to /builds (the provider returns to the
 * root), not to /dashboard; a later visit of the root opens the Dashboard again.
 */

vi.setConfig({ testTimeout: 60_000 });

afterEach(() => {
  window.sessionStorage.clear();
  window.history.replaceState({}, "", "/");
});

const api = () =>
  mockApi({
    "/v1/catalog": () => jsonResponse(buildCatalog()),
    "/v1/me": () => jsonResponse({ signed_in: false }),
    "/auth/logout": () => jsonResponse({ redirect_to: "/oidc/session/end?id_token_hint=x" }),
  });

describe("signing out keeps the page", () => {
  it("remembers the page signed out from, and the root opens it once", async () => {
    api();
    const assign = vi.spyOn(browser, "assign").mockImplementation(() => undefined);
    window.history.replaceState({}, "", "/builds?tab=1");
    await signOut();
    expect(assign).toHaveBeenCalledWith("/oidc/session/end?id_token_hint=x");

    const back = renderApp("/");
    await waitFor(() => expect(back.router.state.location.pathname).toBe("/builds"));
    expect(back.router.state.location.search).toBe("?tab=1");
    back.unmount();

    const later = renderApp("/");
    await waitFor(() => expect(later.router.state.location.pathname).toBe("/dashboard"));
  });

  it("never leaves the app for a remembered address that is not one of its pages", async () => {
    api();
    window.sessionStorage.setItem("assay.after-sign-out", "//evil.example/x");
    const view = renderApp("/");
    await waitFor(() => expect(view.router.state.location.pathname).toBe("/dashboard"));
  });
});
