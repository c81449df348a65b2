import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { queryKeys } from "../../../api/query-keys";
import { buildPage, buildRecord } from "../../../test/build-fixtures";
import { jsonResponse, mockApi } from "../../../test/mock-api";
import { renderUi } from "../../../test/render-ui";
import { RunBuilds } from "./RunBuilds";

vi.setConfig({ testTimeout: 30_000 });

describe("RunBuilds", () => {
  it("links the run to its builds, oldest first, each to its log on Builds", async () => {
    const asked: string[] = [];
    mockApi({
      "/v1/china/builds": (url) => {
        asked.push(url.search);
        return jsonResponse(
          buildPage([
            buildRecord({ id: 8, region: "CHINA", rerunOf: "failed", currentPhase: "BUILD" }),
            buildRecord({
              id: 7,
              region: "CHINA",
              buildStatus: "FAILED",
              currentPhase: "COMPLETED",
            }),
          ]),
        );
      },
    });
    renderUi(<RunBuilds family="frontend" runKey="ui run/1" china />);
    const nav = await screen.findByRole("navigation", { name: "Builds of this run" });
    expect(asked[0]).toBe("?test_run_key=ui%20run%2F1&page_size=100");
    expect(nav).toHaveTextContent(
      "Builds of this run:#7 build (failed)#8 rerun of failed (in progress, build)",
    );
    expect(within(nav).getByRole("link", { name: "#8 rerun of failed" })).toHaveAttribute(
      "href",
      "/builds?tab=0&region=CHINA&log=8",
    );
  });

  it("reads the run again when its last active build ends", async () => {
    let active = true;
    mockApi({
      "/v1/api/builds": () =>
        jsonResponse(
          buildPage([
            buildRecord({
              id: 3,
              family: "backend",
              rerunOf: "failed",
              buildStatus: active ? "IN_PROGRESS" : "SUCCEEDED",
              currentPhase: active ? "BUILD" : "COMPLETED",
            }),
          ]),
        ),
    });
    const { queryClient } = renderUi(
      <RunBuilds family="backend" runKey="api-run-1" china={false} />,
    );
    const nav = await screen.findByRole("navigation", { name: "Builds of this run" });
    const viewKey = queryKeys.runView("backend", "api-run-1", "");
    queryClient.setQueryData(viewKey, { stale: false });
    active = false;
    // The list reads itself again every few seconds while a build is active.
    await waitFor(() => expect(nav).toHaveTextContent("#3 rerun of failed (succeeded)"), {
      timeout: 10_000,
    });
    await waitFor(() => expect(queryClient.getQueryState(viewKey)?.isInvalidated).toBe(true));
  });

  it("shows nothing for a run uploaded from elsewhere (no builds)", async () => {
    mockApi({ "/v1/builds": () => jsonResponse(buildPage([])) });
    const { container, queryClient } = renderUi(
      <RunBuilds family="frontend" runKey="ui-run-1" china={false} />,
    );
    const key = [...queryKeys.buildLists("/v1/builds"), "run", "ui-run-1"];
    await waitFor(() => expect(queryClient.getQueryState(key)?.status).toBe("success"));
    expect(container).toBeEmptyDOMElement();
  });
});
