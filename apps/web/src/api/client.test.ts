import { afterEach, describe, expect, it, vi } from "vitest";
import { errorResponse, jsonResponse, mockApi } from "../test/mock-api";
import { ApiError, getJson } from "./client";

const numberParser = {
  parse(data: unknown): { n: number } {
    if (typeof data === "object" && data !== null && "n" in data && typeof data.n === "number") {
      return { n: data.n };
    }
    throw new Error("not a { n: number }");
  },
};

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  if (!(error instanceof ApiError)) throw new Error(`expected an ApiError, got ${String(error)}`);
  return error;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("getJson", () => {
  it("returns the parsed body and asks for JSON", async () => {
    const fetchMock = mockApi({ "/v1/thing": () => jsonResponse({ n: 3 }) });

    await expect(getJson("/v1/thing", numberParser)).resolves.toEqual({ n: 3 });
    const init = fetchMock.mock.calls[0]?.[1];
    expect(new Headers(init?.headers).get("Accept")).toBe("application/json");
    expect(init?.signal).toBeInstanceOf(AbortSignal);
  });

  it("turns the server's error body into an ApiError with its code and message", async () => {
    mockApi({ "/v1/thing": () => errorResponse(409, "run_closed", "The run is already finished") });

    const error = await failure(getJson("/v1/thing", numberParser));
    expect(error.status).toBe(409);
    expect(error.code).toBe("run_closed");
    expect(error.message).toBe("The run is already finished");
  });

  it("says only the status when the error body is not the server's", async () => {
    mockApi({
      "/v1/thing": () => new Response("<html>Bad Gateway</html>", { status: 502 }),
    });

    const error = await failure(getJson("/v1/thing", numberParser));
    expect(error.status).toBe(502);
    expect(error.code).toBe("http_error");
    expect(error.message).toBe("The server answered 502.");
  });

  it("rejects a body that does not match the schema", async () => {
    mockApi({ "/v1/thing": () => jsonResponse({ n: "three" }) });

    const error = await failure(getJson("/v1/thing", numberParser));
    expect(error.code).toBe("invalid_response");
    expect(error.message).toBe("The server's answer to /v1/thing is not in the expected shape.");
  });

  it("reports an unreachable server as a network error", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(() => Promise.reject(new TypeError("Failed to fetch"))),
    );

    const error = await failure(getJson("/v1/thing", numberParser));
    expect(error.status).toBe(0);
    expect(error.code).toBe("network_error");
    expect(error.message).toBe("Could not reach the Assay server.");
  });

  it("lets a cancelled request through as an abort, not as a failure", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn((_input: RequestInfo | URL, init?: RequestInit) => {
        const reason = init?.signal?.reason as unknown;
        return Promise.reject(reason instanceof Error ? reason : new Error("not aborted"));
      }),
    );
    const controller = new AbortController();
    controller.abort();

    await expect(getJson("/v1/thing", numberParser, controller.signal)).rejects.toHaveProperty(
      "name",
      "AbortError",
    );
  });
});
