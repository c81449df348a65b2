import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { buildRecord } from "../../test/build-fixtures";
import { buildMe } from "../../test/me-factory";
import { errorResponse, jsonResponse, mockApi } from "../../test/mock-api";
import { renderUi } from "../../test/render-ui";
import { FailedSummary } from "./backend/FailedSummary";
import { RerunButton } from "./RerunButton";

vi.setConfig({ testTimeout: 30_000 });

function mock(signedIn: boolean, posted: unknown[] = []) {
  return mockApi({
    "/v1/me": () =>
      signedIn ? jsonResponse(buildMe()) : errorResponse(401, "unauthorized", "Sign in first"),
    "/v1/test-runs/ui-run-1/rerun": (_url, init) => {
      posted.push(JSON.parse(String(init?.body)));
      return jsonResponse({ build: buildRecord({ id: 31, rerunOf: "unstable" }) }, 201);
    },
    "/v1/api-test-run/api-run-1/rerun": (_url, init) => {
      posted.push(JSON.parse(String(init?.body)));
      return errorResponse(409, "run_open", "The run is still receiving results.");
    },
  });
}

describe("Rerun", () => {
  it("signed out, is disabled with 'Please sign in'", async () => {
    mock(false);
    renderUi(
      <RerunButton
        family="frontend"
        runKey="ui-run-1"
        runName="ui nightly"
        place="dev"
        what="failed"
        count={3}
      />,
    );
    const button = screen.getByRole("button", { name: "Rerun failed" });
    await waitFor(() => expect(button).toBeDisabled());
    await userEvent.hover(button.parentElement!);
    expect(await screen.findByRole("tooltip")).toHaveTextContent("Please sign in");
  });

  it("reruns a frontend run's unstable tests and says which build started", async () => {
    const posted: unknown[] = [];
    mock(true, posted);
    renderUi(
      <RerunButton
        family="frontend"
        runKey="ui-run-1"
        runName="ui nightly"
        place="dev"
        what="unstable"
        count={2}
      />,
    );
    const button = screen.getByRole("button", { name: "Rerun unstable" });
    await waitFor(() => expect(button).toBeEnabled());
    await userEvent.click(button);
    // It asks first, naming what will run; Cancel starts nothing.
    const question = await screen.findByRole("dialog", {
      name: "Rerun 2 unstable tests of run ui nightly on dev?",
    });
    await userEvent.click(within(question).getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(posted).toEqual([]);
    await userEvent.click(button);
    await userEvent.click(
      within(await screen.findByRole("dialog")).getByRole("button", { name: "Rerun" }),
    );
    expect(await screen.findByText(/Rerun started: build #31/)).toBeInTheDocument();
    // The question fades out; until it is gone the page behind it is aria-hidden.
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(screen.getByRole("link", { name: "View on Builds" })).toHaveAttribute(
      "href",
      "/builds?tab=0",
    );
    expect(posted).toEqual([{ tests: "unstable" }]);
  });

  it("shows the server's refusal of a backend rerun, and nothing to rerun disables it", async () => {
    const posted: unknown[] = [];
    mock(true, posted);
    const view = renderUi(
      <RerunButton
        family="backend"
        runKey="api-run-1"
        runName="api nightly"
        place={null}
        what="failed"
        count={1}
      />,
    );
    const button = screen.getByRole("button", { name: "Rerun failed" });
    await waitFor(() => expect(button).toBeEnabled());
    await userEvent.click(button);
    const question = await screen.findByRole("dialog", {
      name: "Rerun 1 failed test of run api nightly?",
    });
    await userEvent.click(within(question).getByRole("button", { name: "Rerun" }));
    expect(
      await screen.findByText("Rerun refused: The run is still receiving results."),
    ).toBeInTheDocument();
    expect(posted).toEqual([{ tests: "failed" }]);
    view.unmount();

    renderUi(
      <RerunButton
        family="backend"
        runKey="api-run-1"
        runName="api nightly"
        place={null}
        what="failed"
        count={0}
      />,
    );
    await waitFor(() =>
      expect(screen.getByRole("button", { name: "Rerun failed" })).toBeDisabled(),
    );
  });

  it("hands a group's failed ids to New Build (By Test Tags) on the run's Builds tab", async () => {
    mock(true);
    const { router } = renderUi(
      <FailedSummary groups={[{ tag: "@login", count: 2, testIds: [5, 9] }]} buildTab="backend" />,
    );
    const handOff = screen.getByRole("button", { name: "New Build with the failed ids of @login" });
    await waitFor(() => expect(handOff).toBeEnabled());
    await userEvent.click(handOff);
    expect(router.state.location.pathname).toBe("/builds");
    expect(router.state.location.search).toBe("?tab=1&new=1&tags=TC5%2CTC9");
  });
});
