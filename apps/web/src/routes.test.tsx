import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it } from "vitest";
import { buildCatalog } from "./test/catalog-factory";
import { mockCatalog } from "./test/mock-api";
import { renderApp } from "./test/render-app";
import { SCREEN_CODE } from "./screen-code";

// The spec's sidebar, in order: '/' (redirect) and /print (hidden) are not in it.
const SIDEBAR: [label: string, href: string][] = [
  ["Dashboard", "/dashboard"],
  ["Builds", "/builds"],
  ["Test Reports", "/test_runs"],
  ["Traceability Matrix", "/traceability-matrix"],
  ["Top Fails", "/top_fails"],
  ["Failures", "/failures"],
  ["Test History", "/history"],
  ["Renamed Tests", "/renamed-tests"],
  ["Dynamic Tags", "/dtags"],
  ["Data Harmonization", "/data"],
  ["Setting", "/settings"],
];

function screensNav() {
  return screen.getByRole("navigation", { name: "Screens" });
}

function highlighted() {
  return within(screensNav())
    .queryAllByRole("link", { current: "page" })
    .map((link) => link.textContent);
}

beforeEach(() => {
  mockCatalog(buildCatalog());
});

describe("sidebar", () => {
  it("lists the screens of the route table in order, with their paths", async () => {
    renderApp("/dashboard");
    await screen.findByRole("heading", { level: 1, name: "Dashboard" });

    const links = within(screensNav()).getAllByRole("link");
    expect(links.map((link) => [link.textContent, link.getAttribute("href")])).toEqual(SIDEBAR);
  });

  it.each([
    ["/dashboard", "Dashboard"],
    ["/test_runs", "Test Reports"],
    ["/test_runs/abc", "Test Reports"],
    ["/test_runs/abc/1", "Test Reports"],
    ["/history/42", "Test History"],
    ["/settings", "Setting"],
  ])("highlights the entry of %s (%s) and no other", async (path, label) => {
    renderApp(path);

    await waitFor(() => expect(highlighted()).toEqual([label]));
    const link = within(screensNav()).getByRole("link", { name: label });
    expect(link).toHaveClass("Mui-selected");
  });

  it("moves the highlight and the title when an entry is clicked", async () => {
    const { router } = renderApp("/dashboard");
    await screen.findByRole("heading", { level: 1, name: "Dashboard" });

    await userEvent.click(within(screensNav()).getByRole("link", { name: "Top Fails" }));

    expect(
      await screen.findByRole(
        "heading",
        { level: 1, name: "Top Failed Tests in the last 2 months" },
        { timeout: 5000 },
      ),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/top_fails");
    expect(highlighted()).toEqual(["Top Fails"]);
  });
});

describe("routes", () => {
  it("redirects / to /dashboard", async () => {
    const { router } = renderApp("/");

    await waitFor(() => expect(router.state.location.pathname).toBe("/dashboard"));
    expect(await screen.findByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
    expect(highlighted()).toEqual(["Dashboard"]);
  });

  // Only the catalogue is mocked, so the run and build lists and the run answer 404.
  it.each([
    ["/builds", "Builds", "Error retrieving the build list. Please try again and refresh."],
    ["/test_runs", "Test Reports", "Error retrieving run list. Please try again and refresh."],
    ["/test_runs/run-1/7", "Test Reports", "Error occurred fetching results"],
  ])("%s shows the title %s over its screen", async (path, title, message) => {
    renderApp(path);

    expect(await screen.findByText(message, {}, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.getByRole("heading", { level: 1, hidden: true })).toHaveTextContent(title);
    expect(document.title).toBe(`${title} · Assay`);
  });

  // Only the catalogue is mocked, so each screen's own call answers 404 and it says so.
  it.each([
    ["/top_fails", "Top Failed Tests in the last 2 months", /Could not load the top failed tests/],
    ["/history/42", "Test History", /No test TC42 in Assay/],
    ["/dtags", "Dynamic Tags", /Could not load the dynamic tags/],
    ["/settings", "Daily Run Scheduler", /Could not load the settings/],
  ])("%s shows the title %s over its screen", async (path, title, message) => {
    renderApp(path);

    expect(await screen.findByText(message, {}, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.getByRole("heading", { level: 1 })).toHaveTextContent(title);
    expect(document.title).toBe(`${title} · Assay`);
  });

  it("/dashboard shows the title Dashboard over its charts, saying they could not load", async () => {
    renderApp("/dashboard");

    // The first import of the chart library takes seconds under jsdom.
    await screen.findAllByText(/Could not load the daily runs/, {}, { timeout: 14_000 });
    expect(screen.getByRole("heading", { level: 1 })).toHaveTextContent("Dashboard");
    expect(document.title).toBe("Dashboard · Assay");
  }, 15_000);

  it("/releases (not in the sidebar) shows the title Nora Releases over its screen", async () => {
    renderApp("/releases");

    await screen.findByText(/Could not load the release report/, {}, { timeout: 14_000 });
    expect(screen.getByRole("heading", { level: 1 })).toHaveTextContent("Nora Releases");
    expect(highlighted()).toEqual([]);
  }, 15_000);

  // Only the catalogue is mocked, so the detail of /print/run-1/7 answers 404.
  it.each([
    ["/print", "Nothing Found!"],
    ["/print/run-1", "Nothing Found!"],
    ["/print/run-1/7", "An error occurred fetching results"],
  ])("renders %s on its own, without the sidebar layout", async (path, message) => {
    renderApp(path);

    expect(await screen.findByRole("heading", { level: 1, name: "Test Detail" })).toBeVisible();
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(screen.queryByRole("navigation")).not.toBeInTheDocument();
    expect(screen.queryByRole("banner")).not.toBeInTheDocument();
    expect(screen.queryByRole("contentinfo")).not.toBeInTheDocument();
  });

  it("matches /print exactly: a deeper path is an unknown page", async () => {
    renderApp("/print/run-1/7/extra");

    expect(await screen.findByRole("heading", { level: 1, name: "Page not found" })).toBeVisible();
    expect(screensNav()).toBeInTheDocument();
  });

  it.each(["/no-such-screen", "/dashboard/extra", "/builds/1"])(
    "shows Page not found for %s inside the layout, with a way back",
    async (path) => {
      const { router } = renderApp(path);

      expect(
        await screen.findByRole("heading", { level: 1, name: "Page not found" }),
      ).toBeVisible();
      expect(screen.getByText(path)).toBeInTheDocument();
      expect(highlighted()).toEqual([]);

      const back = screen.getByRole("link", { name: "Go to the Dashboard" });
      expect(back).toHaveAttribute("href", "/dashboard");
      await userEvent.click(back);
      expect(await screen.findByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
      expect(router.state.location.pathname).toBe("/dashboard");
    },
  );
});

describe("a screen whose code is in already", () => {
  it("renders at once, without the page's progress bar (React keeps a fallback 300 ms)", async () => {
    await SCREEN_CODE["top-fails"].load();
    renderApp("/top_fails");
    expect(screen.queryByRole("progressbar", { name: "Loading page" })).toBeNull();
    expect(
      screen.getByRole("heading", { level: 1, name: "Top Failed Tests in the last 2 months" }),
    ).toBeVisible();
  });
});
