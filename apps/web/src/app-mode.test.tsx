import { screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { readAppMode } from "./app-mode";
import { buildCatalog } from "./test/catalog-factory";
import userEvent from "@testing-library/user-event";
import { buildMe } from "./test/me-factory";
import { jsonResponse, mockApi, mockCatalog, requestedPaths } from "./test/mock-api";
import { renderApp } from "./test/render-app";

// The tag as the server writes it into index.html for a data-harmonization host.
function serveAs(content: string) {
  const meta = document.createElement("meta");
  meta.name = "assay-mode";
  meta.content = content;
  document.head.append(meta);
}

afterEach(() => {
  document.head.querySelectorAll('meta[name="assay-mode"]').forEach((meta) => meta.remove());
});

describe("readAppMode", () => {
  it("reads the mode the server wrote into the page", () => {
    serveAs("data-harmonization");
    expect(readAppMode()).toBe("data-harmonization");
  });

  it.each(["full", "", "something-else"])("falls back to the full layout for %j", (content) => {
    serveAs(content);
    expect(readAppMode()).toBe("full");
  });

  it("falls back to the full layout when the tag is missing", () => {
    expect(readAppMode()).toBe("full");
  });
});

describe("data-harmonization host", () => {
  it.each(["/builds", "/", "/dashboard", "/print/run-1/7", "/no-such-screen"])(
    "renders only Data Harmonization on %s",
    async (path) => {
      const fetchMock = mockCatalog(buildCatalog());
      serveAs("data-harmonization");
      const { router } = renderApp(path, { mode: readAppMode() });

      expect(
        await screen.findByRole("heading", { level: 1, name: "Data Harmonization" }),
      ).toBeVisible();
      // The screen's chunk (MUI selects, tables, accordions) takes a while to transform at first.
      expect(
        await screen.findByRole("tab", { name: "Data Validation" }, { timeout: 8_000 }),
      ).toBeInTheDocument();
      expect(screen.queryByRole("navigation")).not.toBeInTheDocument();
      expect(screen.queryByRole("banner")).not.toBeInTheDocument();
      expect(screen.queryByText("Page not found")).not.toBeInTheDocument();
      // The path stays as typed: nothing redirects to /data.
      expect(router.state.location.pathname).toBe(path);
      // The data site does not start the main app's requests (spec section 7, "Other"): only
      // data harmonization's own calls and who is signed in.
      expect(requestedPaths(fetchMock).filter((p) => !/^\/v1\/(dh\/|me$)/.test(p))).toEqual([]);
    },
    15_000,
  );

  it("has the header's Sign in, returning to the same page, and Sign out once signed in", async () => {
    mockCatalog(buildCatalog());
    serveAs("data-harmonization");
    const view = renderApp("/reports/nightly?env=stage", { mode: readAppMode() });
    const signIn = await screen.findByRole("link", { name: "Sign in" });
    expect(signIn).toHaveAttribute(
      "href",
      `/auth/login?return_to=${encodeURIComponent("/reports/nightly?env=stage")}`,
    );
    view.unmount();

    mockApi({
      "/v1/catalog": () => jsonResponse(buildCatalog()),
      "/v1/me": () => jsonResponse(buildMe({ name: "Dana Analyst" })),
    });
    renderApp("/reports/nightly", { mode: readAppMode() });
    expect(await screen.findByText("Hello, Dana Analyst")).toBeVisible();
    await userEvent.click(screen.getByRole("button", { name: "Account menu" }));
    expect(await screen.findByRole("menuitem", { name: "Sign out" })).toBeVisible();
  }, 30_000);

  it("shows the full layout on the same path when the tag says full", async () => {
    mockCatalog(buildCatalog());
    serveAs("full");
    renderApp("/builds", { mode: readAppMode() });

    expect(await screen.findByRole("heading", { level: 1, name: "Builds" })).toBeVisible();
    expect(screen.getByRole("navigation", { name: "Screens" })).toBeInTheDocument();
  });
});
