import type { FastifyInstance } from "fastify";

/** The subset of fetch that openid-client and jose call. */
export type FetchLike = (
  url: string,
  options: {
    method: string;
    headers?: Record<string, string> | Headers;
    body?: unknown;
    signal?: AbortSignal | null;
  },
) => Promise<Response>;

const NO_BODY = new Set([101, 204, 205, 304]);

function payloadOf(body: unknown): string | Buffer | undefined {
  if (typeof body === "string") return body;
  if (body instanceof URLSearchParams) return body.toString();
  if (body instanceof Uint8Array) return Buffer.from(body);
  if (body instanceof ArrayBuffer) return Buffer.from(body);
  return undefined;
}

/**
 * Calls to the embedded provider (`${publicUrl}/oidc/...`) go through app.inject instead of the
 * network: the server need not reach its own public address (a load balancer, TLS in front),
 * and nothing leaves the process. Anything else goes to the real fetch.
 */
export function inProcessFetch(app: FastifyInstance, publicUrl: string): FetchLike {
  const origin = new URL(publicUrl);
  return async (url, options) => {
    const target = new URL(url);
    if (target.origin !== origin.origin || !target.pathname.startsWith("/oidc")) {
      return fetch(url, options as RequestInit);
    }
    const headers = Object.fromEntries(new Headers(options.headers).entries());
    const response = await app.inject({
      method: options.method as "GET",
      url: `${target.pathname}${target.search}`,
      headers: {
        ...headers,
        host: origin.host,
        "x-forwarded-proto": origin.protocol.replace(":", ""),
        "x-forwarded-host": origin.host,
      },
      payload: payloadOf(options.body),
    });
    const responseHeaders = new Headers();
    for (const [name, value] of Object.entries(response.headers)) {
      if (value === undefined) continue;
      for (const item of Array.isArray(value) ? value : [value]) {
        responseHeaders.append(name, String(item));
      }
    }
    return new Response(NO_BODY.has(response.statusCode) ? null : response.rawPayload, {
      status: response.statusCode,
      headers: responseHeaders,
    });
  };
}
