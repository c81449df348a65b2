import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LightMyRequestResponse } from "fastify";
import {
  CookieJar,
  fetchWithJar,
  followToRedirectUri,
  submitLogin,
} from "../../../../../../e2e/support/oidc-login.js";
import { TEST_SECRET_KEY } from "../../../../test/build-test-app.js";
import { startListeningApp, type ListeningTestApp } from "../../../../test/identity-app.js";
import { createTestDatabase, type TestDatabase } from "../../../../test/test-database.js";
import { createUser } from "../../users/users.service.js";
import { authKeys } from "../auth.setup.js";
import { browserNonce, issueHandoff, type HandoffContext } from "./handoff.service.js";

/**
 * Sign-in at a data-harmonization host (dh.test, a second name of the same server): the host
 * sends the browser to the public address's sign-in, which answers with a one-time code that the
 * host exchanges for a session of its own. The public address is spoken to over real HTTP; the
 * host by inject, the only way to give a request another Host name here.
 */

const QA = { email: "qa@example.com", password: "correct horse battery", name: "QA Engineer" };
let database: TestDatabase;
let server: ListeningTestApp;
let dhHost: string;
let handoffs: HandoffContext;

const cookieOf = (res: LightMyRequestResponse, name: string) =>
  res.cookies.find((c) => c.name === name);

/** A request to a host of this server by name, with cookies, as a browser there sends it. */
function atHost(
  host: string,
  url: string,
  cookies: Record<string, string> = {},
  init: { method?: "GET" | "POST" | "PUT"; headers?: Record<string, string>; body?: string } = {},
) {
  const cookie = Object.entries(cookies)
    .map(([n, v]) => `${n}=${v}`)
    .join("; ");
  return server.app.inject({
    method: init.method ?? "GET",
    url,
    headers: { host, ...(cookie ? { cookie } : {}), ...init.headers },
    payload: init.body,
  });
}

/** Sign in at dh.test from the Sign in button to the code's redirect; returns code and nonce. */
async function signInFromDhHost(returnTo: string) {
  const start = await atHost(dhHost, `/auth/login?return_to=${encodeURIComponent(returnTo)}`);
  expect(start.statusCode).toBe(302);
  const nonce = cookieOf(start, "assay_handoff");
  expect(nonce?.httpOnly).toBe(true);
  expect(nonce?.domain).toBeUndefined();
  const toPublic = new URL(String(start.headers.location));
  expect(toPublic.origin).toBe(server.publicUrl);
  expect(toPublic.searchParams.get("return_host")).toBe("dh.test");

  const jar = new CookieJar();
  const login = await fetchWithJar(jar, toPublic);
  const authorize = new URL(login.headers.get("location") ?? "");
  const loginUrl = new URL(
    (await fetchWithJar(jar, authorize)).headers.get("location") ?? "",
    authorize,
  );
  await fetchWithJar(jar, loginUrl);
  const posted = await submitLogin(jar, loginUrl, { email: QA.email, password: QA.password });
  const callback = await followToRedirectUri(jar, posted, loginUrl, server.redirectUri);
  const landed = await fetchWithJar(jar, callback);
  return { landed, jar, nonce: nonce?.value ?? "" };
}

/** A code made as the public address's callback makes it, for the tests of refusals. */
async function freshCode(host = "dh.test") {
  const { nonce, hash } = browserNonce();
  const code = await issueHandoff(handoffs, {
    host,
    browserHash: Buffer.from(hash, "base64url"),
    userId: 1,
    tokens: { access_token: "not-used-here" },
    returnTo: "/data",
  });
  return { code, nonce };
}

beforeAll(async () => {
  database = await createTestDatabase();
  await createUser(database.db.kysely, { ...QA });
  server = await startListeningApp(database.db, {
    env: { ASSAY_DATA_HARMONIZATION_HOSTS: "^dh[0-9]?\\.test$" },
  });
  dhHost = `dh.test:${new URL(server.address).port}`;
  const key = authKeys(Buffer.from(TEST_SECRET_KEY, "base64")).handoffTokens;
  handoffs = { db: database.db.kysely, tokensKey: key };
});

afterAll(async () => {
  await server?.app.close();
  await database?.drop();
});

describe("sign-in at a data-harmonization host", () => {
  it("signs in at the public address, lands back on the same page of the host signed in, and signs out there", async () => {
    const { landed, jar, nonce } = await signInFromDhHost("/data?env=staging");
    // A page that moves on to the host (a redirect would break the login form's CSP).
    expect(landed.status).toBe(200);
    expect(landed.headers.get("referrer-policy")).toBe("no-referrer");
    const refresh = /content="0;url=([^"]+)"/.exec(await landed.text())?.[1] ?? "";
    const toHost = new URL(refresh.replaceAll("&amp;", "&"));
    expect(`${toHost.origin}${toHost.pathname}`).toBe(`http://${dhHost}/auth/handoff`);
    // The sign-in was for dh.test: the public address keeps no session of it.
    expect(jar.cookies.has("assay_session")).toBe(false);

    const code = toHost.searchParams.get("code") ?? "";
    const exchanged = await atHost(dhHost, `/auth/handoff?code=${code}`, { assay_handoff: nonce });
    expect(exchanged.statusCode).toBe(302);
    expect(exchanged.headers.location).toBe("/data?env=staging");
    const session = cookieOf(exchanged, "assay_session");
    expect(session?.domain).toBeUndefined();
    const cookies = { assay_session: session?.value ?? "" };
    const me = await atHost(dhHost, "/v1/me", cookies);
    expect(me.json()).toMatchObject({ email: QA.email });
    // The session is the host's: a change from the host's own page passes the CSRF check.
    const csrf = (me.json() as { csrf_token: string }).csrf_token;
    const origin = `http://${dhHost}`;
    const put = await atHost(dhHost, "/v1/me", cookies, {
      method: "PUT",
      headers: { origin, "x-csrf-token": csrf, "content-type": "application/json" },
      body: JSON.stringify({ name: "QA Engineer" }),
    });
    expect(put.statusCode).toBe(200);

    // Replay: the same code once more is refused, in words.
    const again = await atHost(dhHost, `/auth/handoff?code=${code}`, { assay_handoff: nonce });
    expect(again.statusCode).toBe(400);
    expect(again.body).toContain("already used");

    // Sign-out from another origin is refused; from the host's own page it ends the session.
    const forged = await atHost(dhHost, "/auth/logout", cookies, {
      method: "POST",
      headers: { accept: "application/json", origin: server.publicUrl, "x-csrf-token": csrf },
    });
    expect(forged.statusCode).toBe(403);
    const out = await atHost(dhHost, "/auth/logout", cookies, {
      method: "POST",
      headers: { accept: "application/json", origin, "x-csrf-token": csrf },
    });
    expect(out.json()).toEqual({ redirect_to: "/" });
    expect((await atHost(dhHost, "/v1/me", cookies)).json()).toEqual({ signed_in: false });
  });

  it("refuses an expired code", async () => {
    const { code, nonce } = await freshCode();
    await database.db.kysely
      .updateTable("sign_in_handoffs")
      .set({ expires_at: new Date(Date.now() - 1000) })
      .execute();
    const res = await atHost(dhHost, `/auth/handoff?code=${code}`, { assay_handoff: nonce });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain("expired");
    expect(cookieOf(res, "assay_session")).toBeUndefined();
  });

  it("refuses a code at another data-harmonization host, and uses it up", async () => {
    const { code, nonce } = await freshCode("dh.test");
    const dh2 = dhHost.replace("dh.test", "dh2.test");
    const res = await atHost(dh2, `/auth/handoff?code=${code}`, { assay_handoff: nonce });
    expect(res.statusCode).toBe(403);
    expect(res.body).toContain("made for another address");
    const then = await atHost(dhHost, `/auth/handoff?code=${code}`, { assay_handoff: nonce });
    expect(then.body).toContain("already used");
  });

  it("refuses a code at a host that is not a data-harmonization host", async () => {
    const { code, nonce } = await freshCode();
    const res = await atHost(new URL(server.address).host, `/auth/handoff?code=${code}`, {
      assay_handoff: nonce,
    });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain("not one of Assay&#39;s data-harmonization hosts");
  });

  it("refuses an altered code and a code in another browser", async () => {
    const { code, nonce } = await freshCode();
    const altered = `${code.slice(0, -1)}${code.endsWith("A") ? "B" : "A"}`;
    const bad = await atHost(dhHost, `/auth/handoff?code=${altered}`, { assay_handoff: nonce });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain("not valid");
    // A code someone else got, planted in this browser (login CSRF): no nonce, no session.
    const planted = await atHost(dhHost, `/auth/handoff?code=${code}`);
    expect(planted.statusCode).toBe(403);
    expect(planted.body).toContain("started in another browser");
    expect(cookieOf(planted, "assay_session")).toBeUndefined();
  });

  it("keeps only the hash of a code and wipes its tokens once used", async () => {
    const { code, nonce } = await freshCode();
    const codeHash = createHash("sha256").update(code).digest();
    const rowOf = () =>
      database.db.kysely
        .selectFrom("sign_in_handoffs")
        .selectAll()
        .where("code_hash", "=", codeHash)
        .executeTakeFirstOrThrow();
    const before = await rowOf();
    expect(before.tokens_encrypted?.toString("utf8")).not.toContain("not-used-here");
    await atHost(dhHost, `/auth/handoff?code=${code}`, { assay_handoff: nonce });
    const after = await rowOf();
    expect(after.tokens_encrypted).toBeNull();
    expect(after.used_at).not.toBeNull();
  });

  it("returns only to the public address or a data-harmonization host, refusing others in words", async () => {
    const hash = browserNonce().hash;
    const login = (host: string) =>
      fetch(`${server.address}/auth/login?return_to=%2F&return_host=${host}&handoff=${hash}`, {
        redirect: "manual",
      });
    const evil = await login("evil.example");
    expect(evil.status).toBe(400);
    expect(await evil.text()).toContain("Sign-in does not return to evil.example");
    const publicHost = await login(new URL(server.publicUrl).hostname);
    expect(publicHost.status).toBe(302);
    // Without the host's nonce hash, a sign-in for dh.test cannot start here.
    const noNonce = await fetch(`${server.address}/auth/login?return_host=dh.test`, {
      redirect: "manual",
    });
    expect(noNonce.status).toBe(400);
    expect(await noNonce.text()).toContain("must start at dh.test itself");
  });
});
