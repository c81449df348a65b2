import { execFile } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type { Page } from "playwright-core";

/**
 * Signing in at Assay's embedded provider: with plain HTTP, as a browser would (fetch with manual
 * redirects and a cookie jar, through the real login form), for tests of the provider, the CLI
 * and the server's sign-in; and in a journey's real browser page (signInOnPage).
 */

/** Cookies by name, as a browser keeps them for one site (paths are ignored). */
export class CookieJar {
  readonly cookies = new Map<string, string>();

  store(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = "", ...attributes] = line.split(";");
      const eq = pair.indexOf("=");
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attributes.some(
        (a) => /^\s*max-age=0\s*$/i.test(a) || /^\s*expires=.*1970/i.test(a),
      );
      if (expired || value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }
}

/** fetch without following redirects, sending and keeping the jar's cookies. */
export async function fetchWithJar(
  jar: CookieJar,
  url: string | URL,
  init: RequestInit = {},
): Promise<Response> {
  const headers = new Headers(init.headers);
  if (jar.cookies.size > 0) headers.set("cookie", jar.header());
  const response = await fetch(url, { ...init, headers, redirect: "manual" });
  jar.store(response);
  return response;
}

export interface AuthorizationRequest {
  url: URL;
  state: string;
  nonce: string;
  codeVerifier: string;
  redirectUri: string;
}

/** An authorization-code request with PKCE (S256), state and nonce. */
export function authorizationRequest(options: {
  issuer: string;
  redirectUri: string;
  clientId?: string;
  scope?: string;
  extra?: Record<string, string>;
}): AuthorizationRequest {
  const codeVerifier = randomBytes(32).toString("base64url");
  const state = randomBytes(16).toString("base64url");
  const nonce = randomBytes(16).toString("base64url");
  const url = new URL(`${options.issuer}/auth`);
  const params = {
    client_id: options.clientId ?? "assay-web",
    response_type: "code",
    redirect_uri: options.redirectUri,
    scope: options.scope ?? "openid email profile",
    state,
    nonce,
    code_challenge: createHash("sha256").update(codeVerifier).digest("base64url"),
    code_challenge_method: "S256",
    ...options.extra,
  };
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  return { url, state, nonce, codeVerifier, redirectUri: options.redirectUri };
}

function locationOf(response: Response, from: string | URL): URL {
  const location = response.headers.get("location");
  if (!location || response.status < 300 || response.status > 399) {
    throw new Error(`expected a redirect from ${String(from)}, got ${response.status}`);
  }
  return new URL(location, from);
}

/** Starts the flow and returns the login page's URL and HTML. */
export async function openLoginPage(
  jar: CookieJar,
  request: AuthorizationRequest,
): Promise<{ loginUrl: URL; html: string; response: Response }> {
  const loginUrl = locationOf(await fetchWithJar(jar, request.url), request.url);
  const response = await fetchWithJar(jar, loginUrl);
  return { loginUrl, html: await response.text(), response };
}

/** Posts the login form as a browser would. */
export function submitLogin(
  jar: CookieJar,
  loginUrl: URL,
  fields: Record<string, string>,
): Promise<Response> {
  return fetchWithJar(jar, loginUrl, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      origin: loginUrl.origin,
    },
    body: new URLSearchParams(fields).toString(),
  });
}

/**
 * Follows the provider's redirects after a successful login until they reach the redirect URI,
 * and returns that URL (with code, state and iss). The redirect URI itself is not fetched.
 */
export async function followToRedirectUri(
  jar: CookieJar,
  response: Response,
  from: URL,
  redirectUri: string,
): Promise<URL> {
  let current = response;
  let url = from;
  for (let hop = 0; hop < 10; hop += 1) {
    const next = locationOf(current, url);
    if (next.href.startsWith(redirectUri)) return next;
    url = next;
    current = await fetchWithJar(jar, next);
  }
  throw new Error("too many redirects before the redirect URI");
}

/** The whole flow: authorization request, login form, redirects; returns the callback URL. */
export async function signInWithPassword(options: {
  issuer: string;
  redirectUri: string;
  email: string;
  password: string;
  scope?: string;
  extra?: Record<string, string>;
  jar?: CookieJar;
}): Promise<{ callback: URL; request: AuthorizationRequest; jar: CookieJar }> {
  const jar = options.jar ?? new CookieJar();
  const request = authorizationRequest(options);
  const { loginUrl } = await openLoginPage(jar, request);
  const posted = await submitLogin(jar, loginUrl, {
    email: options.email,
    password: options.password,
  });
  if (posted.status !== 303) {
    throw new Error(`sign-in refused (${posted.status}): ${await posted.text()}`);
  }
  const callback = await followToRedirectUri(jar, posted, loginUrl, options.redirectUri);
  return { callback, request, jar };
}

const CLI = fileURLToPath(new URL("../../apps/cli/dist/main.js", import.meta.url));

/**
 * `npx assay users add` against the database in `dataDir` (a running server's ASSAY_DATA_DIR);
 * returns the password the CLI shows once.
 */
export async function addUserWithCli(
  dataDir: string,
  user: { email: string; name: string; admin?: boolean },
): Promise<string> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [
      CLI,
      ...["users", "add", "--email", user.email, "--name", user.name],
      ...(user.admin ? ["--admin"] : []),
    ],
    {
      cwd: fileURLToPath(new URL("../..", import.meta.url)),
      env: { PATH: process.env.PATH ?? "", ASSAY_DATA_DIR: dataDir, LOG_LEVEL: "warn" },
    },
  );
  const lines = stdout.trim().split("\n");
  const password = lines[lines.indexOf("Their password, shown this once:") + 1];
  if (!password) throw new Error(`no password in: ${stdout}`);
  return password;
}

/** Fills and submits the embedded provider's login page that `page` shows (or is about to). */
export async function submitLoginPage(
  page: Page,
  user: { email: string; password: string },
): Promise<void> {
  await page.getByRole("heading", { name: "Sign in to Assay" }).waitFor();
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/**
 * Signs `page` in through the app's Sign in route and the provider's login page, and waits until
 * it is back on `returnTo`: a journey's test that needs a signed-in user starts with this.
 */
export async function signInOnPage(
  page: Page,
  serverUrl: string,
  user: { email: string; password: string },
  returnTo = "/",
): Promise<void> {
  await page.goto(`${serverUrl}/auth/login?return_to=${encodeURIComponent(returnTo)}`);
  await submitLoginPage(page, user);
  await page.waitForURL(`${serverUrl}${returnTo}`);
}
