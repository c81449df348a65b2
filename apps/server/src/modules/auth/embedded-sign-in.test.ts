import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  CookieJar,
  fetchWithJar,
  followToRedirectUri,
  submitLogin,
} from "../../../../../e2e/support/oidc-login.js";
import { TEST_SECRET_KEY } from "../../../test/build-test-app.js";
import { startListeningApp, type ListeningTestApp } from "../../../test/identity-app.js";
import { createTestDatabase, type TestDatabase } from "../../../test/test-database.js";
import { createUser } from "../users/users.service.js";
import { authKeys } from "./auth.setup.js";
import { open } from "../../secret-box.js";

/**
 * Sign-in with the default, embedded provider, over real HTTP as a browser does it: Assay's
 * /auth/login, the provider's own login form, /auth/callback, then the API with the cookie.
 */

const QA = { email: "qa@example.com", password: "correct horse battery", name: "QA Engineer" };
let database: TestDatabase;
let server: ListeningTestApp;

async function signInAt(returnTo: string): Promise<{ jar: CookieJar; landed: Response }> {
  const jar = new CookieJar();
  const login = await fetchWithJar(
    jar,
    `${server.address}/auth/login?return_to=${encodeURIComponent(returnTo)}`,
  );
  const authorize = new URL(login.headers.get("location") ?? "");
  const toLoginPage = await fetchWithJar(jar, authorize);
  const loginUrl = new URL(toLoginPage.headers.get("location") ?? "", authorize);
  await fetchWithJar(jar, loginUrl);
  const posted = await submitLogin(jar, loginUrl, { email: QA.email, password: QA.password });
  const callback = await followToRedirectUri(jar, posted, loginUrl, server.redirectUri);
  const landed = await fetchWithJar(jar, callback);
  return { jar, landed };
}

async function storedTokens(): Promise<{ access_token: string; id_token: string }> {
  const row = await database.db.kysely
    .selectFrom("sessions")
    .selectAll()
    .orderBy("created_at", "desc")
    .executeTakeFirstOrThrow();
  const key = authKeys(Buffer.from(TEST_SECRET_KEY, "base64")).sessionTokens;
  const text = open(key, row.tokens_encrypted, `assay-session:${row.id_hash.toString("hex")}`);
  return JSON.parse(text ?? "{}") as { access_token: string; id_token: string };
}

beforeAll(async () => {
  database = await createTestDatabase();
  await createUser(database.db.kysely, { ...QA });
  server = await startListeningApp(database.db);
});

afterAll(async () => {
  await server?.app.close();
  await database?.drop();
});

describe("sign-in with the embedded provider", () => {
  it("signs in through the provider's login page and lands where it started", async () => {
    const { jar, landed } = await signInAt("/top_fails");
    expect(landed.status).toBe(302);
    expect(landed.headers.get("location")).toBe("/top_fails");

    const me = await fetchWithJar(jar, `${server.address}/v1/me`);
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ email: QA.email, name: QA.name, admin: false });
  });

  it("gets JWT access tokens for the API, which work as bearer tokens too", async () => {
    await signInAt("/");
    const { access_token } = await storedTokens();
    expect(decodeJwt(access_token).aud).toBe(`${server.publicUrl}/v1`);
    const me = await fetch(`${server.address}/v1/me`, {
      headers: { authorization: `Bearer ${access_token}` },
    });
    expect(me.status).toBe(200);
  });

  it("carries a name edited in the Profile dialog into the provider's claims", async () => {
    const { jar } = await signInAt("/");
    const csrf = (
      (await (await fetchWithJar(jar, `${server.address}/v1/me`)).json()) as { csrf_token: string }
    ).csrf_token;
    const put = await fetchWithJar(jar, `${server.address}/v1/me`, {
      method: "PUT",
      headers: {
        "content-type": "application/json",
        origin: server.publicUrl,
        "x-csrf-token": csrf,
      },
      body: JSON.stringify({ name: "Quinn Analyst" }),
    });
    expect(put.status).toBe(200);

    await signInAt("/");
    expect(decodeJwt((await storedTokens()).id_token).name).toBe("Quinn Analyst");
  });

  it("signs out at the provider too, handing it the ID token", async () => {
    const { jar } = await signInAt("/");
    const csrf = (
      (await (await fetchWithJar(jar, `${server.address}/v1/me`)).json()) as { csrf_token: string }
    ).csrf_token;
    const out = await fetchWithJar(jar, `${server.address}/auth/logout`, {
      method: "POST",
      headers: { accept: "application/json", origin: server.publicUrl, "x-csrf-token": csrf },
    });
    const target = new URL(((await out.json()) as { redirect_to: string }).redirect_to);
    expect(`${target.origin}${target.pathname}`).toBe(`${server.issuer}/session/end`);
    expect(target.searchParams.get("id_token_hint")).toBeTruthy();
    const after = await fetchWithJar(jar, `${server.address}/v1/me`);
    expect(await after.json()).toEqual({ signed_in: false });
  });
});

describe("opened at 127.0.0.1 while ASSAY_PUBLIC_URL says localhost (the default install)", () => {
  let local: ListeningTestApp;
  const START = "/test_runs/run-7?be=1";

  beforeAll(async () => {
    local = await startListeningApp(database.db, { publicHostname: "localhost" });
  });
  afterAll(async () => {
    await local?.app.close();
  });

  it("moves the browser to the public address first, signs in and lands where it started", async () => {
    // A browser keeps cookies per host: one jar for 127.0.0.1, one for localhost.
    const jars = new Map<string, CookieJar>();
    const jarOf = (url: URL) => {
      const jar = jars.get(url.host) ?? new CookieJar();
      jars.set(url.host, jar);
      return jar;
    };
    let url = new URL(`${local.address}/auth/login?return_to=${encodeURIComponent(START)}`);
    let response = await fetchWithJar(jarOf(url), url);
    for (let hop = 0; hop < 10 && !url.pathname.includes("/interaction/"); hop++) {
      url = new URL(response.headers.get("location") ?? "", url);
      response = await fetchWithJar(jarOf(url), url);
    }
    expect(url.origin).toBe(local.publicUrl);
    expect(jarOf(new URL(local.address)).cookies.size).toBe(0);

    const posted = await submitLogin(jarOf(url), url, { email: QA.email, password: QA.password });
    const callback = await followToRedirectUri(jarOf(url), posted, url, local.redirectUri);
    const landed = await fetchWithJar(jarOf(callback), callback);
    expect(landed.status).toBe(302);
    expect(landed.headers.get("location")).toBe(START);
    const me = await fetchWithJar(jarOf(callback), `${local.publicUrl}/v1/me`);
    expect(me.status).toBe(200);
  });

  it("goes on at the address it was sent to, so a proxy that rewrites Host cannot loop", async () => {
    const res = await local.app.inject({
      method: "GET",
      url: `/auth/login?return_to=%2Fdtags&at_public_url=1`,
      headers: { host: "10.0.0.5:8080" },
    });
    expect(res.statusCode).toBe(302);
    expect(String(res.headers.location)).toContain(`${local.issuer}/auth?`);
  });

  it("says what to set when the browser is on another machine, which localhost is not", async () => {
    const res = await local.app.inject({
      method: "GET",
      url: "/auth/login?return_to=%2Fdtags",
      headers: { host: "qa-box.lan:8080" },
    });
    expect(res.statusCode).toBe(400);
    expect(res.headers["content-type"]).toContain("text/html");
    expect(res.body).toContain("start Assay with ASSAY_PUBLIC_URL=http://qa-box.lan:8080");
    expect(res.body).toContain(
      `href="${local.publicUrl}/auth/login?return_to=%2Fdtags&amp;at_public_url=1"`,
    );
    expect(res.cookies).toEqual([]);
  });
});
