import type { FastifyInstance, LightMyRequestResponse } from "fastify";

/**
 * The browser's part of the authorization-code flow, played without a browser: Assay's routes
 * through app.inject, the provider over HTTP with a small cookie jar. Each step is separate so
 * that tests can tamper with what passes between them.
 */

/** `name=value` pairs of a response's Set-Cookie headers (attributes dropped). */
export function cookiesOf(response: LightMyRequestResponse): Record<string, string> {
  const jar: Record<string, string> = {};
  for (const cookie of response.cookies) jar[cookie.name] = cookie.value;
  return jar;
}

export function cookieHeader(jar: Record<string, string>): string {
  return Object.entries(jar)
    .map(([name, value]) => `${name}=${value}`)
    .join("; ");
}

export interface StartedSignIn {
  response: LightMyRequestResponse;
  /** Where /auth/login sent the browser: the provider's authorization endpoint. */
  authorizeUrl: URL;
  /** The sign-in state cookie (name=value), as the browser would send it back. */
  loginCookie: Record<string, string>;
}

export async function startSignIn(app: FastifyInstance, returnTo?: string): Promise<StartedSignIn> {
  const query = returnTo === undefined ? "" : `?return_to=${encodeURIComponent(returnTo)}`;
  let response = await app.inject({ method: "GET", url: `/auth/login${query}` });
  // inject's Host (localhost:80) is not ASSAY_PUBLIC_URL's: Assay first sends the browser there.
  const moved = new URL(String(response.headers.location ?? "/"), "http://localhost");
  if (response.statusCode === 302 && moved.pathname === "/auth/login") {
    response = await app.inject({
      method: "GET",
      url: `${moved.pathname}${moved.search}`,
      headers: { host: moved.host },
    });
  }
  if (response.statusCode !== 302) {
    throw new Error(`/auth/login answered ${response.statusCode}: ${response.body}`);
  }
  return {
    response,
    authorizeUrl: new URL(String(response.headers.location)),
    loginCookie: cookiesOf(response),
  };
}

/**
 * Follows the provider's redirects (its login interaction signs the test user in at once) until
 * it sends the browser back to Assay; returns that callback URL.
 */
export async function visitProvider(authorizeUrl: URL, publicUrl: string): Promise<URL> {
  const jar: Record<string, string> = {};
  let url = authorizeUrl;
  for (let hop = 0; hop < 10; hop++) {
    const response = await fetch(url, {
      redirect: "manual",
      headers: { cookie: cookieHeader(jar) },
    });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(";");
      const eq = pair?.indexOf("=") ?? -1;
      if (pair && eq > 0) jar[pair.slice(0, eq)] = pair.slice(eq + 1);
    }
    const location = response.headers.get("location");
    if (!location)
      throw new Error(
        `the provider stopped at ${url.href}: ${response.status} ${await response.text()}`,
      );
    url = new URL(location, url);
    if (url.href.startsWith(`${publicUrl}/auth/callback`)) return url;
  }
  throw new Error("the provider did not send the browser back to Assay in 10 redirects");
}

export async function finishSignIn(
  app: FastifyInstance,
  callbackUrl: URL,
  cookies: Record<string, string>,
): Promise<LightMyRequestResponse> {
  return app.inject({
    method: "GET",
    url: `${callbackUrl.pathname}${callbackUrl.search}`,
    headers: { cookie: cookieHeader(cookies) },
  });
}

export interface SignedIn {
  /** Cookie header value carrying the session cookie. */
  cookie: string;
  /** The callback's answer (302 to the return path). */
  callback: LightMyRequestResponse;
}

/** The whole flow: sign-in started, provider visited, callback answered. */
export async function signIn(
  app: FastifyInstance,
  publicUrl: string,
  returnTo?: string,
): Promise<SignedIn> {
  const started = await startSignIn(app, returnTo);
  const callbackUrl = await visitProvider(started.authorizeUrl, publicUrl);
  const callback = await finishSignIn(app, callbackUrl, started.loginCookie);
  return { cookie: cookieHeader(cookiesOf(callback)), callback };
}
