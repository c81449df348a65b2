import { describe, expect, it, vi } from "vitest";
import { ApiError } from "./client";
import { createQueryClient } from "./query-client";
import { queryKeys } from "./query-keys";
import { signInHref } from "./sign-in";

const unauthorized = () => Promise.reject(new ApiError(401, "unauthorized", "Sign in first."));

describe("createQueryClient", () => {
  it("sends the user to sign in when a read or a change answers 401", async () => {
    const onUnauthorized = vi.fn();
    const client = createQueryClient(onUnauthorized);
    await client
      .fetchQuery({ queryKey: ["run-list"], queryFn: unauthorized })
      .catch(() => undefined);
    await client
      .getMutationCache()
      .build(client, { mutationFn: unauthorized })
      .execute(undefined)
      .catch(() => undefined);
    expect(onUnauthorized).toHaveBeenCalledTimes(2);
  });

  it("leaves a 401 from GET /v1/me alone: it only means signed out", async () => {
    const onUnauthorized = vi.fn();
    const client = createQueryClient(onUnauthorized);
    await client
      .fetchQuery({ queryKey: queryKeys.me, queryFn: unauthorized })
      .catch(() => undefined);
    await client
      .fetchQuery({
        queryKey: ["run-list"],
        queryFn: () => Promise.reject(new ApiError(403, "forbidden", "No.")),
      })
      .catch(() => undefined);
    expect(onUnauthorized).not.toHaveBeenCalled();
  });
});

describe("signInHref", () => {
  it("returns to the very page, query and fragment included", () => {
    expect(signInHref({ pathname: "/test_runs/r1", search: "?be=1", hash: "#x" })).toBe(
      "/auth/login?return_to=%2Ftest_runs%2Fr1%3Fbe%3D1%23x",
    );
  });
});
