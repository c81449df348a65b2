import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { buildTestApp, TEST_SECRET_KEY, type TestApp } from "../../../test/build-test-app.js";
import {
  cookieHeader,
  cookiesOf,
  finishSignIn,
  signIn,
  startSignIn,
  visitProvider,
} from "../../../test/sign-in-flow.js";
import { startTestIssuer, type TestIssuer } from "../../../test/test-issuer.js";
import { createTestDatabase, type TestDatabase } from "../../../test/test-database.js";
import { authKeys } from "./auth.setup.js";
import { openLoginState, sealLoginState } from "./login-state.js";

/**
 * Sign-in against an external issuer: a second oidc-provider, started separately on 127.0.0.1
 * and configured as OIDC_ISSUER, the way Keycloak or Okta would be.
 */

const PUBLIC_URL = "http://assay.test";
const ALICE = { sub: "ext-alice", email: "alice@example.com", name: "Alice Example" };

let issuer: TestIssuer;
let database: TestDatabase;
let built: TestApp;

async function sessionCount(): Promise<number> {
  const row = await database.db.kysely
    .selectFrom("sessions")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

const me = (cookie: string) =>
  built.app.inject({ method: "GET", url: "/v1/me", headers: { cookie } });

/** GET /v1/me once the session is gone: nobody is signed in (200, not an error). */
const SIGNED_OUT = { signed_in: false };

beforeAll(async () => {
  issuer = await startTestIssuer({
    redirectUri: `${PUBLIC_URL}/auth/callback`,
    postLogoutRedirectUri: `${PUBLIC_URL}/`,
    user: ALICE,
  });
  database = await createTestDatabase();
  built = await buildTestApp(database.db, {
    env: {
      ASSAY_PUBLIC_URL: PUBLIC_URL,
      OIDC_ISSUER: issuer.issuer,
      OIDC_CLIENT_ID: issuer.clientId,
      OIDC_CLIENT_SECRET: issuer.clientSecret,
    },
  });
});

afterAll(async () => {
  await built?.app.close();
  await database?.drop();
  await issuer?.close();
});

beforeEach(async () => {
  issuer.user = ALICE;
  await database.db.kysely.deleteFrom("sessions").execute();
});

describe("sign-in at an external issuer", () => {
  it("signs in, lands on the page it started from, and knows the user by (issuer, sub)", async () => {
    const { cookie, callback } = await signIn(built.app, PUBLIC_URL, "/test_runs/run-7?be=1");

    expect(callback.statusCode).toBe(302);
    expect(callback.headers.location).toBe("/test_runs/run-7?be=1");
    const session = callback.cookies.find((c) => c.name === "assay_session");
    expect(session).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/" });
    expect(session?.secure).toBeFalsy();

    const res = await me(cookie);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      email: "alice@example.com",
      name: "Alice Example",
      admin: false,
      spira_pass_set: false,
      has_test_management_credentials: false,
    });
    expect(res.json().csrf_token).toEqual(expect.any(String));
    const user = await database.db.kysely
      .selectFrom("users")
      .select(["issuer", "subject", "password_hash"])
      .where("email", "=", "alice@example.com")
      .executeTakeFirstOrThrow();
    expect(user).toEqual({ issuer: issuer.issuer, subject: "ext-alice", password_hash: null });
  });

  it("starts the flow with PKCE S256, state, nonce and a short-lived encrypted state cookie", async () => {
    const { authorizeUrl, response } = await startSignIn(built.app, "/builds");
    const params = authorizeUrl.searchParams;
    expect(`${authorizeUrl.origin}`).toBe(issuer.issuer);
    expect(params.get("code_challenge_method")).toBe("S256");
    expect(params.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(params.get("state")).toBeTruthy();
    expect(params.get("nonce")).toBeTruthy();
    expect(params.get("redirect_uri")).toBe(`${PUBLIC_URL}/auth/callback`);
    const login = response.cookies.find((c) => c.name === "assay_login");
    expect(login).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/", maxAge: 600 });
    expect(login?.value).not.toContain("/builds");
  });

  it("gives a new session id at every sign-in and ends the one the browser had", async () => {
    const first = await signIn(built.app, PUBLIC_URL);
    const started = await startSignIn(built.app);
    const callbackUrl = await visitProvider(started.authorizeUrl, PUBLIC_URL);
    const oldSession = { assay_session: cookiesOf(first.callback).assay_session ?? "" };
    const second = await finishSignIn(built.app, callbackUrl, {
      ...started.loginCookie,
      ...oldSession,
    });

    expect(second.statusCode).toBe(302);
    const secondCookie = cookieHeader(cookiesOf(second));
    expect(secondCookie).not.toBe(first.cookie);
    expect((await me(first.cookie)).json()).toEqual(SIGNED_OUT);
    expect((await me(secondCookie)).statusCode).toBe(200);
    expect(await sessionCount()).toBe(1);
  });

  it.each([
    ["an absolute URL", "https://evil.example/phish"],
    ["a scheme-relative URL", "//evil.example"],
    ["a backslash trick", "/\\evil.example"],
  ])("never returns to another site after sign-in (%s)", async (_kind, returnTo) => {
    const { callback } = await signIn(built.app, PUBLIC_URL, returnTo);
    expect(callback.statusCode).toBe(302);
    expect(callback.headers.location).toBe("/");
  });
});

describe("callbacks that do not belong to the sign-in", () => {
  async function refusedCallback(tamper: (url: URL, cookies: Record<string, string>) => void) {
    const started = await startSignIn(built.app);
    const callbackUrl = await visitProvider(started.authorizeUrl, PUBLIC_URL);
    const cookies = { ...started.loginCookie };
    tamper(callbackUrl, cookies);
    const res = await finishSignIn(built.app, callbackUrl, cookies);
    expect(await sessionCount()).toBe(0);
    expect(res.cookies.find((c) => c.name === "assay_session")).toBeUndefined();
    return res;
  }

  it("refuses a wrong state", async () => {
    const res = await refusedCallback((url) => url.searchParams.set("state", "forged-state"));
    expect(res.statusCode).toBe(401);
    expect(res.headers["content-type"]).toContain("text/html");
    expect(res.body).toContain("does not belong to this sign-in");
  });

  it("refuses an answer naming another issuer (RFC 9207 mix-up defence)", async () => {
    const res = await refusedCallback((url) => url.searchParams.set("iss", "https://evil.example"));
    expect(res.statusCode).toBe(401);
  });

  it("refuses an ID token whose nonce is not this sign-in's", async () => {
    const key = authKeys(Buffer.from(TEST_SECRET_KEY, "base64")).loginState;
    const res = await refusedCallback((_url, cookies) => {
      const state = openLoginState(key, cookies.assay_login ?? "");
      if (!state) throw new Error("the login cookie did not open");
      cookies.assay_login = sealLoginState(key, { ...state, nonce: "another-nonce" });
    });
    expect(res.statusCode).toBe(401);
  });

  it("refuses a callback without this browser's state cookie", async () => {
    const res = await refusedCallback((_url, cookies) => {
      delete cookies.assay_login;
    });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain("Sign in again");
  });

  it("offers to sign in again to the page it started from when the state cookie is gone", async () => {
    const started = await startSignIn(built.app, "/test_runs/run-7?be=1");
    const callbackUrl = await visitProvider(started.authorizeUrl, PUBLIC_URL);
    const res = await finishSignIn(built.app, callbackUrl, {});
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain("This sign-in has expired");
    expect(res.body).toContain('href="/auth/login?return_to=%2Ftest_runs%2Frun-7%3Fbe%3D1"');
  });

  it("shows the provider's refusal as text, never as markup", async () => {
    const started = await startSignIn(built.app);
    const state = started.authorizeUrl.searchParams.get("state") ?? "";
    const url = new URL(`${PUBLIC_URL}/auth/callback`);
    url.searchParams.set("error", "access_denied");
    url.searchParams.set("error_description", "<script>alert(1)</script>");
    url.searchParams.set("state", state);
    url.searchParams.set("iss", issuer.issuer);
    const res = await finishSignIn(built.app, url, started.loginCookie);
    expect(res.statusCode).toBe(401);
    expect(res.body).not.toContain("<script>alert(1)</script>");
    expect(res.body).toContain("&lt;script&gt;");
  });
});

describe("sign-out", () => {
  it("ends the session here and sends the browser to the issuer's logout with id_token_hint", async () => {
    const { cookie } = await signIn(built.app, PUBLIC_URL);
    const csrf = (await me(cookie)).json().csrf_token as string;

    const res = await built.app.inject({
      method: "POST",
      url: "/auth/logout",
      headers: { cookie, origin: PUBLIC_URL, "x-csrf-token": csrf, accept: "application/json" },
    });

    expect(res.statusCode).toBe(200);
    const target = new URL(res.json().redirect_to as string);
    expect(`${target.origin}${target.pathname}`).toBe(`${issuer.issuer}/session/end`);
    expect(target.searchParams.get("post_logout_redirect_uri")).toBe(`${PUBLIC_URL}/`);
    expect(target.searchParams.get("id_token_hint")).toBeTruthy();
    expect(res.cookies.find((c) => c.name === "assay_session")?.value).toBe("");
    expect(await sessionCount()).toBe(0);
    // The old cookie, replayed, is worth nothing.
    expect((await me(cookie)).json()).toEqual(SIGNED_OUT);
  });

  it("accepts a plain HTML form post with the token as a field, answering with a redirect", async () => {
    const { cookie } = await signIn(built.app, PUBLIC_URL);
    const csrf = (await me(cookie)).json().csrf_token as string;
    const res = await built.app.inject({
      method: "POST",
      url: "/auth/logout",
      headers: { cookie, origin: PUBLIC_URL, "content-type": "application/x-www-form-urlencoded" },
      payload: `csrf_token=${encodeURIComponent(csrf)}`,
    });
    expect(res.statusCode).toBe(303);
    expect(String(res.headers.location)).toContain(`${issuer.issuer}/session/end`);
    expect(await sessionCount()).toBe(0);
  });

  it("refuses a sign-out from another site or without the token, keeping the session", async () => {
    const { cookie } = await signIn(built.app, PUBLIC_URL);
    const csrf = (await me(cookie)).json().csrf_token as string;
    const foreign = await built.app.inject({
      method: "POST",
      url: "/auth/logout",
      headers: { cookie, origin: "https://evil.example", "x-csrf-token": csrf },
    });
    const tokenless = await built.app.inject({
      method: "POST",
      url: "/auth/logout",
      headers: { cookie, origin: PUBLIC_URL },
    });
    expect(foreign.statusCode).toBe(403);
    expect(tokenless.statusCode).toBe(403);
    expect((await me(cookie)).statusCode).toBe(200);
  });
});

describe("over https", () => {
  it("sets Secure, __Host- prefixed cookies", async () => {
    const https = await buildTestApp(database.db, {
      env: {
        ASSAY_PUBLIC_URL: "https://assay.example.com",
        OIDC_ISSUER: issuer.issuer,
        OIDC_CLIENT_ID: issuer.clientId,
        OIDC_CLIENT_SECRET: issuer.clientSecret,
      },
    });
    try {
      const res = await https.app.inject({
        method: "GET",
        url: "/auth/login",
        headers: { host: "assay.example.com" },
      });
      expect(res.statusCode).toBe(302);
      expect(res.cookies).toEqual([
        expect.objectContaining({ name: "__Host-assay_login", secure: true, path: "/" }),
      ]);
      expect(res.cookies[0]).not.toHaveProperty("domain");
    } finally {
      await https.app.close();
    }
  });
});
