import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from "jose";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  authorizationRequest,
  CookieJar,
  fetchWithJar,
  followToRedirectUri,
  openLoginPage,
  signInWithPassword,
  submitLogin,
} from "../../../../../e2e/support/oidc-login.js";
import {
  startListeningApp,
  redeemCode,
  type ListeningTestApp,
} from "../../../test/identity-app.js";
import { createTestDatabase, type TestDatabase } from "../../../test/test-database.js";
import { createUser } from "../users/users.service.js";

// The embedded provider spoken to over real HTTP, as a browser and Assay's server would.
let database: TestDatabase;
let server: ListeningTestApp;
const consoleCalls: string[] = [];
const ADMIN = { email: "lead@example.com", password: "correct horse battery" };
const USER = { email: "qa@example.com", password: "another long secret" };

beforeAll(async () => {
  // oidc-provider prints its development warnings with console.warn and console.info.
  for (const method of ["warn", "info", "log", "error"] as const) {
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
      consoleCalls.push(args.map(String).join(" "));
    });
  }
  database = await createTestDatabase();
  await createUser(database.db.kysely, { ...ADMIN, name: "Lead", admin: true });
  await createUser(database.db.kysely, { ...USER, name: "QA Engineer" });
  server = await startListeningApp(database.db);
});
afterAll(async () => {
  await server?.app.close();
  await database?.drop();
  vi.restoreAllMocks();
});

describe("the embedded identity provider", () => {
  it("publishes its discovery document at the issuer, with URLs from ASSAY_PUBLIC_URL only", async () => {
    const response = await fetch(`${server.issuer}/.well-known/openid-configuration`, {
      headers: { "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" },
    });
    expect(response.status).toBe(200);
    const doc = (await response.json()) as Record<string, unknown>;
    expect(doc.issuer).toBe(`${server.publicUrl}/oidc`);
    expect(doc.authorization_endpoint).toBe(`${server.publicUrl}/oidc/auth`);
    expect(doc.token_endpoint).toBe(`${server.publicUrl}/oidc/token`);
    expect(doc.jwks_uri).toBe(`${server.publicUrl}/oidc/jwks`);
    expect(doc.end_session_endpoint).toBe(`${server.publicUrl}/oidc/session/end`);
    expect(doc.response_types_supported).toEqual(["code"]);
    expect(doc.code_challenge_methods_supported).toEqual(["S256"]);
    expect(doc.scopes_supported).toEqual(
      expect.arrayContaining([
        "openid",
        "email",
        "phone",
        "profile",
        "offline_access",
        "assay:admin",
      ]),
    );
    expect(doc.claims_supported).toEqual(expect.arrayContaining(["email", "name", "assay_admin"]));
    expect(doc.authorization_response_iss_parameter_supported).toBe(true);
    expect(doc).not.toHaveProperty("registration_endpoint");

    const alias = await fetch(`${server.address}/.well-known/oauth-authorization-server/oidc`);
    expect(((await alias.json()) as { issuer: string }).issuer).toBe(doc.issuer);
  });

  it("signs a user in with code + PKCE and issues a JWT access token for the API", async () => {
    const { callback, request } = await signInWithPassword({
      ...server,
      ...ADMIN,
      scope: "openid email profile assay:admin",
    });
    expect(callback.searchParams.get("state")).toBe(request.state);
    expect(callback.searchParams.get("iss")).toBe(server.issuer);
    const code = callback.searchParams.get("code") as string;

    const response = await redeemCode(server, { code, codeVerifier: request.codeVerifier });
    expect(response.status).toBe(200);
    const tokens = (await response.json()) as Record<string, string>;
    expect(tokens.token_type).toBe("Bearer");
    expect(tokens.refresh_token).toBeTruthy();

    const jwks = createRemoteJWKSet(new URL(`${server.issuer}/jwks`));
    const access = await jwtVerify(tokens.access_token as string, jwks, {
      issuer: server.issuer,
      audience: `${server.publicUrl}/v1`,
      algorithms: ["ES256", "RS256"],
      typ: "at+jwt",
    });
    expect(decodeProtectedHeader(tokens.access_token as string).alg).toBe("ES256");
    expect(access.payload.client_id).toBe("assay-web");
    expect(access.payload.scope).toBe("assay:admin");
    expect(access.payload.exp! - access.payload.iat!).toBe(600);

    const id = await jwtVerify(tokens.id_token as string, jwks, {
      issuer: server.issuer,
      audience: "assay-web",
      algorithms: ["RS256"],
    });
    expect(id.payload).toMatchObject({
      nonce: request.nonce,
      email: ADMIN.email,
      name: "Lead",
      assay_admin: true,
    });
    expect(id.payload.sub).toBe(access.payload.sub);
  });

  it("gives the admin scope to admins only", async () => {
    const { callback, request } = await signInWithPassword({
      ...server,
      ...USER,
      scope: "openid email profile assay:admin",
    });
    const code = callback.searchParams.get("code") as string;
    const tokens = (await (
      await redeemCode(server, { code, codeVerifier: request.codeVerifier })
    ).json()) as Record<string, string>;
    const jwks = createRemoteJWKSet(new URL(`${server.issuer}/jwks`));
    const access = await jwtVerify(tokens.access_token as string, jwks, { issuer: server.issuer });
    expect(access.payload.scope).toBeUndefined();
    const id = await jwtVerify(tokens.id_token as string, jwks, { issuer: server.issuer });
    expect(id.payload.assay_admin).toBe(false);
  });

  it("requires PKCE with S256, and an exactly registered redirect URI", async () => {
    const refusals: [Record<string, string>, string][] = [
      [{ code_challenge: "" }, "invalid_request"],
      [{ code_challenge_method: "plain" }, "invalid_request"],
      [{ response_type: "token" }, "unsupported_response_type"],
    ];
    for (const [extra, error] of refusals) {
      const request = authorizationRequest({ ...server, extra });
      if (extra.code_challenge === "") request.url.searchParams.delete("code_challenge");
      const answer = await fetch(request.url, { redirect: "manual" });
      const location = new URL(answer.headers.get("location") as string);
      expect(location.href.startsWith(server.redirectUri)).toBe(true);
      // An implicit-flow request is answered in the fragment, as its response mode says.
      const params = new URLSearchParams(location.search || location.hash.slice(1));
      expect(params.get("error")).toBe(error);
    }
    const elsewhere = authorizationRequest({
      ...server,
      redirectUri: `${server.publicUrl}/auth/callback/`,
    });
    const answer = await fetch(elsewhere.url, { redirect: "manual" });
    expect(answer.status).toBe(400);
    expect(answer.headers.get("location")).toBeNull();
  });

  it("serves a login page like the app's, with a strict CSP and no sign-up", async () => {
    const jar = new CookieJar();
    const request = authorizationRequest({ ...server });
    const { html, response } = await openLoginPage(jar, request);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    const csp = response.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toMatch(/script-src 'self'(;|$)/);
    expect(html).toContain("Sign in to Assay");
    expect(html).toContain('name="password" type="password"');
    expect(html).not.toMatch(/<script/);
    expect(html).not.toMatch(/sign[ -]?up|register/i);
    const css = await fetch(`${server.address}/oidc/assets/sign-in.css`);
    expect(css.headers.get("content-type")).toMatch(/^text\/css/);
    expect(await css.text()).toContain(".card{");
  });

  it("refuses arbitrary credentials (no development login)", async () => {
    const jar = new CookieJar();
    const { loginUrl } = await openLoginPage(jar, authorizationRequest({ ...server }));
    const attempts: Record<string, string>[] = [
      { email: "anyone@example.com", password: "anything-at-all" },
      { login: "anyone", password: "anything" },
    ];
    for (const fields of attempts) {
      const response = await submitLogin(jar, loginUrl, fields);
      expect([400, 401]).toContain(response.status);
      expect(response.headers.get("location")).toBeNull();
    }
  });

  it("grants consent itself for Assay's client, also when the client asks for it", async () => {
    const { callback } = await signInWithPassword({
      ...server,
      ...USER,
      scope: "openid email offline_access",
      extra: { prompt: "consent" },
    });
    expect(callback.searchParams.get("code")).toBeTruthy();
  });

  it("keeps a session at the provider, and ends it on sign-out from Assay", async () => {
    const { callback, request, jar } = await signInWithPassword({ ...server, ...USER });
    const code = callback.searchParams.get("code") as string;
    const tokens = (await (
      await redeemCode(server, { code, codeVerifier: request.codeVerifier })
    ).json()) as Record<string, string>;

    // Signed in at the provider: a new authorization needs no password.
    const again = authorizationRequest({ ...server });
    const silent = await fetchWithJar(jar, again.url);
    expect(await followToRedirectUri(jar, silent, again.url, server.redirectUri)).toBeTruthy();

    const endUrl = new URL(`${server.issuer}/session/end`);
    endUrl.searchParams.set("id_token_hint", tokens.id_token as string);
    endUrl.searchParams.set("post_logout_redirect_uri", `${server.publicUrl}/`);
    const page = await fetchWithJar(jar, endUrl);
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).toContain("Sign out of Assay?");
    // Assay's own sign-out is confirmed by a script file (no inline script): no second question.
    expect(html).toContain('<script src="/oidc/assets/sign-out.js" defer></script>');
    expect(html).toContain("data-auto-submit");
    const action = /<form id="op.logoutForm" method="post" action="([^"]+)"/.exec(html)?.[1];
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(html)?.[1];
    const confirmed = await fetchWithJar(jar, new URL(action as string), {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ xsrf: xsrf as string, logout: "yes" }).toString(),
    });
    expect(confirmed.status).toBe(303);
    expect(confirmed.headers.get("location")).toBe(`${server.publicUrl}/`);

    // The provider's session is gone: the next sign-in asks for the password again.
    const after = authorizationRequest({ ...server });
    const { html: loginHtml } = await openLoginPage(jar, after);
    expect(loginHtml).toContain("Sign in to Assay");
  });

  it("prints none of oidc-provider's development warnings", () => {
    expect(consoleCalls.filter((line) => /oidc-provider/.test(line))).toEqual([]);
  });
});
