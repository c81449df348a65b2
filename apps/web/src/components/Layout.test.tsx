import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { SIDEBAR_WIDTH } from "../theme/layout";
import { buildCatalog } from "../test/catalog-factory";
import { errorResponse, mockApi, mockCatalog } from "../test/mock-api";
import { renderApp } from "../test/render-app";

function docsNav() {
  return screen.getByRole("navigation", { name: "Documentation" });
}

describe("layout chrome", () => {
  it("lists the catalogue's documentation links in order; only external ones open a new tab", async () => {
    mockCatalog(buildCatalog());
    renderApp("/dashboard");

    const links = await within(docsNav()).findAllByRole("link");
    expect(links.map((link) => [link.textContent, link.getAttribute("href")])).toEqual([
      ["API Documentation", "/docs"],
      [
        "Directory of Legacy UI Tests(opens in a new tab)",
        "https://docs.example.com/qa/legacy-ui-tests",
      ],
      [
        "Directory of NextGen UI Tests(opens in a new tab)",
        "https://docs.example.com/qa/nextgen-ui-tests",
      ],
      [
        "Directory of Mobile UI Tests(opens in a new tab)",
        "https://docs.example.com/qa/mobile-ui-tests",
      ],
    ]);
    const [apiDocs, ...external] = links;
    expect(apiDocs).not.toHaveAttribute("target");
    for (const link of external) {
      expect(link).toHaveAttribute("target", "_blank");
      expect(link).toHaveAttribute("rel", "noopener noreferrer");
    }
  });

  it("shows whatever links and footer the catalogue holds, not built-in ones", async () => {
    mockCatalog(
      buildCatalog({
        documentationLinks: [{ label: "Runbook", url: "https://wiki.example.org/runbook" }],
        footer: { copyright: "© 2031 Example Org", tagline: "Ship it green" },
      }),
    );
    renderApp("/builds");

    const links = await within(docsNav()).findAllByRole("link");
    expect(links).toHaveLength(1);
    expect(links[0]).toHaveAccessibleName("Runbook (opens in a new tab)");
    expect(screen.queryByText("API Documentation")).not.toBeInTheDocument();
    const footer = screen.getByRole("contentinfo");
    expect(footer).toHaveTextContent("© 2031 Example Org");
    expect(footer).toHaveTextContent("Ship it green");
  });

  it("shows the footer's copyright and tagline", async () => {
    mockCatalog(buildCatalog());
    renderApp("/dashboard");

    const footer = screen.getByRole("contentinfo");
    expect(await within(footer).findByText("© 2026 Assay contributors")).toBeVisible();
    expect(
      within(footer).getByText("Quality Engineering — we test so patients can trust"),
    ).toBeVisible();
  });

  it("shows skeletons, not text, while the catalogue loads", async () => {
    mockApi({ "/v1/catalog": () => new Promise<Response>(() => {}) });
    renderApp("/dashboard");
    await screen.findByRole("heading", { level: 1, name: "Dashboard" });

    expect(docsNav()).toHaveAttribute("aria-busy", "true");
    expect(within(docsNav()).queryAllByRole("link")).toHaveLength(0);
    expect(docsNav().querySelectorAll(".MuiSkeleton-root").length).toBeGreaterThan(0);
    const footer = screen.getByRole("contentinfo");
    expect(footer).toHaveAttribute("aria-busy", "true");
    expect(footer.textContent).toBe("");
    expect(footer.querySelectorAll(".MuiSkeleton-root").length).toBeGreaterThan(0);
  });

  it("says the catalogue failed, with the server's message, and invents nothing", async () => {
    mockApi({
      "/v1/catalog": () => errorResponse(500, "internal_error", "Catalogue could not be read"),
    });
    renderApp("/dashboard");

    expect(await within(docsNav()).findByRole("alert")).toHaveTextContent(
      "Could not load the documentation links: Catalogue could not be read",
    );
    expect(within(docsNav()).queryAllByRole("link")).toHaveLength(0);
    const footer = screen.getByRole("contentinfo");
    expect(within(footer).getByRole("alert")).toHaveTextContent(
      "Could not load the footer: Catalogue could not be read",
    );
    expect(footer).not.toHaveTextContent("©");
    // The screens themselves do not depend on the catalogue.
    expect(
      within(screen.getByRole("navigation", { name: "Screens" })).getAllByRole("link"),
    ).toHaveLength(12);
  });

  it("reports a catalogue that does not match the schema instead of rendering it", async () => {
    mockApi({
      "/v1/catalog": () =>
        new Response(JSON.stringify({ documentationLinks: [] }), {
          headers: { "Content-Type": "application/json" },
        }),
    });
    renderApp("/dashboard");

    expect(await within(docsNav()).findByRole("alert")).toHaveTextContent(
      "/v1/catalog is not in the expected shape",
    );
  });

  it("has a header with the title and an empty actions slot, and a 230 px sidebar", async () => {
    mockCatalog(buildCatalog());
    renderApp("/settings");

    const header = screen.getByRole("banner");
    expect(await within(header).findByRole("heading", { level: 1 })).toHaveTextContent(
      "Daily Run Scheduler",
    );
    expect(within(header).queryAllByRole("button")).toHaveLength(0);
    const drawer = screensNavDrawer();
    expect(SIDEBAR_WIDTH).toBe(230);
    expect(getComputedStyle(drawer).width).toBe("230px");
  });
});

function screensNavDrawer(): HTMLElement {
  const paper = screen.getByRole("navigation", { name: "Screens" }).closest(".MuiDrawer-paper");
  if (!(paper instanceof HTMLElement)) throw new Error("the sidebar is not in a drawer");
  return paper;
}
