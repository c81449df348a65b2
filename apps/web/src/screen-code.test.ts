import { matchPath } from "react-router";
import { describe, expect, it } from "vitest";
import { SCREEN_CODE, screenAt, type ScreenId } from "./screen-code";

/** The router's answer: the first screen whose path matches (the table has no overlaps). */
function routerScreen(pathname: string): ScreenId | null {
  const ids = Object.keys(SCREEN_CODE) as ScreenId[];
  return ids.find((id) => matchPath(SCREEN_CODE[id].path, pathname) !== null) ?? null;
}

describe("screenAt, which picks the screen whose code to fetch first", () => {
  it.each([
    "/",
    "/dashboard",
    "/dashboard/x",
    "/builds",
    "/test_runs",
    "/test_runs/",
    "/test_runs/frontend-1",
    "/test_runs/frontend-1/login%230",
    "/test_runs/a/b/c",
    "/traceability-matrix",
    "/traceability-matrix/print",
    "/traceability-matrix/x",
    "/top_fails",
    "/history",
    "/history/42",
    "/history/42/x",
    "/renamed-tests",
    "/dtags",
    "/data",
    "/settings",
    "/releases",
    "/print",
    "/print/k/t",
    "/print/k/t/x",
    "/nope",
  ])("agrees with the router at %s", (pathname) => {
    expect(screenAt(pathname)).toBe(routerScreen(pathname));
  });

  it("finds Test Reports for a run's dialog, and nothing for the redirect or an unknown path", () => {
    expect(screenAt("/test_runs/frontend-1/login%230")).toBe("runs");
    expect(screenAt("/")).toBeNull();
    expect(screenAt("/nope")).toBeNull();
  });
});
