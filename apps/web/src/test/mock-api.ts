import { vi } from "vitest";
import type { Catalog } from "@assay/core";

/**
 * Answers one path; it gets the whole URL, for handlers that look at the query, and the request
 * init, for handlers that look at the method or body of a change.
 */
type Handler = (url: URL, init?: RequestInit) => Response | Promise<Response>;

function urlOf(input: RequestInfo | URL): URL {
  return new URL(input instanceof Request ? input.url : String(input), "http://assay.test");
}

function pathOf(input: RequestInfo | URL): string {
  return urlOf(input).pathname;
}

export function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json" },
  });
}

export function errorResponse(status: number, code: string, message: string): Response {
  return jsonResponse({ error: { code, message } }, status);
}

/**
 * Replaces fetch with a server that knows only the given GET paths; any other call fails the
 * way the real server does, so a test notices a request it did not expect.
 */
export function mockApi(handlers: Record<string, Handler>) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = urlOf(input);
    const handler = handlers[url.pathname];
    if (!handler) return errorResponse(404, "not_found", `No mock for ${url.pathname}`);
    return handler(url, init);
  });
  vi.stubGlobal("fetch", fetchMock);
  return fetchMock;
}

export function mockCatalog(catalog: Catalog) {
  return mockApi({ "/v1/catalog": () => jsonResponse(catalog) });
}

/** Paths requested so far, to assert what a screen did (or did not) ask for. */
export function requestedPaths(fetchMock: ReturnType<typeof mockApi>): string[] {
  return fetchMock.mock.calls.map(([input]) => pathOf(input));
}
