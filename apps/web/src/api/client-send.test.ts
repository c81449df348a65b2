import { beforeEach, describe, expect, it } from "vitest";
import { errorResponse, jsonResponse, mockApi } from "../test/mock-api";
import { ApiError, rememberCsrfToken, sendJson } from "./client";

const anyBody = { parse: (data: unknown) => data };

function headersOf(init: RequestInit | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries((init?.headers ?? {}) as Record<string, string>));
}

beforeEach(() => rememberCsrfToken(null));

describe("sendJson", () => {
  it("sends the body as JSON with the session's CSRF token read from /v1/me", async () => {
    const fetchMock = mockApi({
      "/v1/me": () => jsonResponse({ id: 1, csrf_token: "tok-1" }),
      "/v1/dtag/": () => jsonResponse({ ok: true }, 201),
    });

    const answer = await sendJson("POST", "/v1/dtag/", { name: "smoke" }, anyBody);

    expect(answer).toEqual({ ok: true });
    const [, init] = fetchMock.mock.calls.at(-1)!;
    expect(init?.method).toBe("POST");
    expect(init?.body).toBe('{"name":"smoke"}');
    expect(headersOf(init)).toMatchObject({
      "Content-Type": "application/json",
      "X-CSRF-Token": "tok-1",
    });
  });

  it("reads the token once and sends no Content-Type without a body", async () => {
    const fetchMock = mockApi({
      "/v1/me": () => jsonResponse({ id: 1, csrf_token: "tok-1" }),
      "/v1/dtag/3": () => jsonResponse({ id: 3 }),
    });

    await sendJson("DELETE", "/v1/dtag/3", undefined, anyBody);
    await sendJson("DELETE", "/v1/dtag/3", undefined, anyBody);

    const paths = fetchMock.mock.calls.map(([input]) => String(input));
    expect(paths).toEqual(["/v1/me", "/v1/dtag/3", "/v1/dtag/3"]);
    const [, init] = fetchMock.mock.calls.at(-1)!;
    expect(init?.body).toBeUndefined();
    expect(headersOf(init)).not.toHaveProperty("Content-Type");
  });

  it("reads a fresh token and sends once more when the server calls the token stale", async () => {
    let attempts = 0;
    const fetchMock = mockApi({
      "/v1/me": () => jsonResponse({ id: 1, csrf_token: "new" }),
      "/v1/tagged_test/9": (_url, init) => {
        attempts += 1;
        return headersOf(init)["X-CSRF-Token"] === "new"
          ? jsonResponse({ id: 9 })
          : errorResponse(403, "csrf_refused", "stale");
      },
    });
    // A token from before the user signed in again elsewhere.
    rememberCsrfToken("old");

    await expect(sendJson("DELETE", "/v1/tagged_test/9", undefined, anyBody)).resolves.toEqual({
      id: 9,
    });
    expect(attempts).toBe(2);
    expect(fetchMock.mock.calls.filter(([input]) => String(input) === "/v1/me")).toHaveLength(1);
  });

  it("sends no token when signed out, and turns the 401 into an ApiError", async () => {
    const fetchMock = mockApi({
      "/v1/me": () => errorResponse(401, "unauthorized", "Sign in first."),
      "/v1/dtag/": () => errorResponse(401, "unauthorized", "Sign in first."),
    });

    const error = await sendJson("POST", "/v1/dtag/", { name: "x" }, anyBody).catch(
      (reason: unknown) => reason,
    );

    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 401, code: "unauthorized", message: "Sign in first." });
    const [, init] = fetchMock.mock.calls.at(-1)!;
    expect(headersOf(init)).not.toHaveProperty("X-CSRF-Token");
  });
});
