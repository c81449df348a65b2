import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { buildPage, buildRecord } from "../../test/build-fixtures";
import { buildCatalog } from "../../test/catalog-factory";
import { buildMe } from "../../test/me-factory";
import { errorResponse, jsonResponse, mockApi, requestedPaths } from "../../test/mock-api";
import { renderUi } from "../../test/render-ui";
import { BuildsPage } from "./BuildsPage";
import { BUILD_POLL_MS } from "./use-builds";

// MUI under jsdom is slow on a shared machine: a page with a table and a dialog takes seconds.
vi.setConfig({ testTimeout: 60_000 });

type Handlers = Parameters<typeof mockApi>[0];

function mock(handlers: Handlers, { signedIn = true } = {}) {
  return mockApi({
    "/v1/catalog": () => jsonResponse(buildCatalog()),
    "/v1/me": () =>
      signedIn ? jsonResponse(buildMe()) : errorResponse(401, "unauthorized", "Sign in first"),
    "/v1/dtag": () => jsonResponse({ byTag: {} }),
    ...handlers,
  });
}

const table = (name: string) => screen.findByRole("table", { name });

describe("Builds page", () => {
  it("lists the Frontend builds with their fields, phase and status chips, run and log links", async () => {
    mock({
      "/v1/builds": () =>
        jsonResponse(
          buildPage([
            buildRecord({ id: 2 }),
            buildRecord({
              id: 1,
              TEST_RUN_NAME: "ui smoke",
              currentPhase: "COMPLETED",
              buildStatus: "FAILED",
              endTime: "2026-11-26T08:02:05.000Z",
              statusMessage: "Chromium is not installed: set CHROMIUM_PATH",
            }),
          ]),
        ),
    });
    renderUi(<BuildsPage />, { path: "/builds?tab=0" });
    const rows = within(await table("Frontend builds")).getAllByRole("row");
    await waitFor(() => expect(rows).toHaveLength(3));
    const done = within(screen.getByRole("row", { name: /ui smoke/ }));
    expect(done.getByText("Failed")).toBeInTheDocument();
    expect(done.getByText("Completed")).toBeInTheDocument();
    expect(done.getByText("2m 5s")).toBeInTheDocument();
    expect(done.getByText("dev.legacy.example.com")).toBeInTheDocument();
    expect(done.getByRole("link", { name: "ui smoke" })).toHaveAttribute(
      "href",
      "/test_runs/ui-run-1",
    );
    expect(done.getByRole("link", { name: "Log of build 1" })).toHaveAttribute(
      "href",
      "/builds?tab=0&log=1",
    );
    const running = within(screen.getByRole("row", { name: /ui nightly/ }));
    expect(running.getByText("In progress")).toBeInTheDocument();
    expect(running.getByText("Build")).toBeInTheDocument();
  });

  it("keeps the tab in the URL as 0, 1, 2 and reads each family's list", async () => {
    const fetchMock = mock({
      "/v1/builds": () => jsonResponse(buildPage([])),
      "/v1/api/builds": () =>
        jsonResponse(
          buildPage([buildRecord({ family: "backend", NORA_SITE: null, ENVIRONMENT: "dev1" })]),
        ),
      "/v1/load/builds": () => jsonResponse(buildPage([])),
    });
    const { router } = renderUi(<BuildsPage />, { path: "/builds" });
    expect(await screen.findByText("No builds yet: start one with New Build.")).toBeVisible();
    await userEvent.click(screen.getByRole("tab", { name: "Backend" }));
    expect(router.state.location.search).toBe("?tab=1");
    expect(within(await table("Backend builds")).getByText("dev1")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "New API Build" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "View Test Repo" })).toHaveAttribute(
      "href",
      "https://git.example.com/qa/api-tests",
    );
    await userEvent.click(screen.getByRole("tab", { name: "Load" }));
    expect(router.state.location.search).toBe("?tab=2");
    await table("Load builds");
    expect(screen.getByRole("button", { name: "New Load Build" })).toBeInTheDocument();
    expect(requestedPaths(fetchMock)).toEqual(
      expect.arrayContaining(["/v1/builds", "/v1/api/builds", "/v1/load/builds"]),
    );
  });

  it("lists /v1/china/builds when the Frontend switch is on CHINA", async () => {
    const fetchMock = mock({
      "/v1/builds": () => jsonResponse(buildPage([])),
      "/v1/china/builds": () =>
        jsonResponse(buildPage([buildRecord({ region: "CHINA", TEST_RUN_NAME: "cn run" })])),
    });
    const { router } = renderUi(<BuildsPage />, { path: "/builds?tab=0" });
    await screen.findByText("No builds yet: start one with New Build.");
    await userEvent.click(screen.getByRole("switch", { name: "China region" }));
    expect(router.state.location.search).toBe("?tab=0&region=CHINA");
    expect(await screen.findByRole("link", { name: "cn run" })).toBeInTheDocument();
    expect(requestedPaths(fetchMock)).toContain("/v1/china/builds");
  });

  it("signed out, New Build is disabled with 'Please sign in'; signed in its tooltip is 'Create new build'", async () => {
    mock({ "/v1/builds": () => jsonResponse(buildPage([])) }, { signedIn: false });
    const view = renderUi(<BuildsPage />, { path: "/builds" });
    const button = await screen.findByRole("button", { name: "New Build" });
    await waitFor(() => expect(button).toBeDisabled());
    await userEvent.hover(button.parentElement!);
    expect(await screen.findByRole("tooltip")).toHaveTextContent("Please sign in");
    view.unmount();

    mock({ "/v1/builds": () => jsonResponse(buildPage([])) });
    renderUi(<BuildsPage />, { path: "/builds" });
    const enabled = await screen.findByRole("button", { name: "New Build" });
    await waitFor(() => expect(enabled).toBeEnabled());
    await userEvent.hover(enabled.parentElement!);
    expect(await screen.findByRole("tooltip")).toHaveTextContent("Create new build");
  });

  it("says so when the list cannot be read", async () => {
    mock({ "/v1/builds": () => errorResponse(500, "internal", "boom") });
    renderUi(<BuildsPage />, { path: "/builds" });
    expect(
      await screen.findByText("Error retrieving the build list. Please try again and refresh."),
    ).toBeInTheDocument();
  });

  it("reads the list again while a build is active and stops once none is", async () => {
    let calls = 0;
    const fetchMock = mock({
      "/v1/builds": () => {
        calls += 1;
        const status = calls === 1 ? "IN_PROGRESS" : "SUCCEEDED";
        const endTime = calls === 1 ? null : "2026-11-26T08:01:00.000Z";
        return jsonResponse(buildPage([buildRecord({ buildStatus: status, endTime })]));
      },
    });
    renderUi(<BuildsPage />, { path: "/builds" });
    expect(await screen.findByText("In progress")).toBeInTheDocument();
    expect(await screen.findByText("Succeeded", {}, { timeout: BUILD_POLL_MS * 2 })).toBeVisible();
    await new Promise((resolve) => setTimeout(resolve, BUILD_POLL_MS * 1.5));
    expect(requestedPaths(fetchMock).filter((p) => p === "/v1/builds")).toHaveLength(2);
  });

  it("opens a build's log from its link, with Stop while it runs", async () => {
    let stopped = false;
    const detail = () => ({
      ...buildRecord({ id: 7, buildStatus: stopped ? "STOPPED" : "IN_PROGRESS" }),
      log: { text: "Running 12 tests using 1 worker\n", truncated: false, bytes: 33 },
      events: [
        { at: "2026-11-26T08:00:00.000Z", kind: "queued", server: null, message: "Queued by QA." },
        {
          at: "2026-11-26T08:00:01.000Z",
          kind: "started",
          server: "5c831c52-aaaa",
          message: "Started by server host-a (5c831c52), try 1.",
        },
        {
          at: "2026-11-26T08:02:00.000Z",
          kind: "taken_over",
          server: "b5766d3b-bbbb",
          message:
            "Taken over by server host-b (b5766d3b): server 5c831c52 stopped renewing its lease; started again as try 2.",
        },
      ],
    });
    mock({
      "/v1/builds": () => jsonResponse(buildPage([buildRecord({ id: 7 })])),
      "/v1/builds/7": () => jsonResponse(detail()),
      "/v1/builds/7/stop": (_url, init) => {
        expect(init?.method).toBe("POST");
        stopped = true;
        return jsonResponse({ build: buildRecord({ id: 7, buildStatus: "STOPPED" }) });
      },
    });
    renderUi(<BuildsPage />, { path: "/builds" });
    await userEvent.click(await screen.findByRole("link", { name: "Log of build 7" }));
    const dialog = await screen.findByRole("dialog", { name: "Log of build #7" });
    expect(await within(dialog).findByText(/Running 12 tests/)).toBeInTheDocument();
    // The build's history, oldest first, each step named in words.
    const history = within(dialog).getByRole("list", { name: "Build history" });
    const steps = within(history)
      .getAllByRole("listitem")
      .map((item) => item.textContent);
    expect(steps).toEqual([
      "11-26 08:00:00QueuedQueued by QA.",
      "11-26 08:00:01StartedStarted by server host-a (5c831c52), try 1.",
      "11-26 08:02:00Taken overTaken over by server host-b (b5766d3b): server 5c831c52 stopped renewing its lease; started again as try 2.",
    ]);
    const stop = within(dialog).getByRole("button", { name: "Stop build 7" });
    await waitFor(() => expect(stop).toBeEnabled());
    await userEvent.click(stop);
    const confirm = await screen.findByRole("dialog", { name: /^Stop build #7 \(.+\)\?$/ });
    await userEvent.click(within(confirm).getByRole("button", { name: "Stop build" }));
    expect(await within(dialog).findByText("Stopped")).toBeInTheDocument();
    expect(within(dialog).queryByRole("button", { name: "Stop build 7" })).toBeNull();
  });

  it("has Stop in an active build's row, which asks first and stops nothing on Cancel", async () => {
    const stops: string[] = [];
    mock({
      "/v1/builds": () =>
        jsonResponse(
          buildPage([
            buildRecord({ id: 8, TEST_RUN_NAME: "nightly ui" }),
            buildRecord({ id: 3, buildStatus: "SUCCEEDED", endTime: "2026-11-26T08:01:00.000Z" }),
          ]),
        ),
      "/v1/builds/8/stop": (url) => {
        stops.push(url.pathname);
        return jsonResponse({ build: buildRecord({ id: 8, buildStatus: "STOPPED" }) });
      },
    });
    renderUi(<BuildsPage />, { path: "/builds" });
    const row = within(await screen.findByRole("row", { name: /nightly ui/ }));
    // A finished build has nothing to stop.
    expect(screen.queryByRole("button", { name: "Stop build 3" })).toBeNull();
    const stop = row.getByRole("button", { name: "Stop build 8" });
    await waitFor(() => expect(stop).toBeEnabled());
    await userEvent.click(stop);
    let confirm = await screen.findByRole("dialog", { name: "Stop build #8 (nightly ui)?" });
    await userEvent.click(within(confirm).getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(stops).toEqual([]);
    await userEvent.click(stop);
    confirm = await screen.findByRole("dialog", { name: "Stop build #8 (nightly ui)?" });
    await userEvent.click(within(confirm).getByRole("button", { name: "Stop build" }));
    await waitFor(() => expect(stops).toEqual(["/v1/builds/8/stop"]));
  }, 90_000);
});
