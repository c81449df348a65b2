import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { buildTestApp, TEST_SECRET_KEY, type TestApp } from "../../../test/build-test-app.js";
import { signIn } from "../../../test/sign-in-flow.js";
import { startTestIssuer, type TestIssuer } from "../../../test/test-issuer.js";
import { createTestDatabase, type TestDatabase } from "../../../test/test-database.js";
import { authKeys } from "./auth.setup.js";
import { open, seal } from "../../secret-box.js";

/**
 * Sessions: lifetimes, server-side refresh, CSRF on cookie-authenticated changes, and forged or
 * replayed cookies. The issuer here gives opaque access tokens and keeps the email for userinfo
 * (oidc-provider's default), and its access tokens live 30 s, inside the refresh margin.
 */

const PUBLIC_URL = "http://assay.test";
const BOB = { sub: "ext-bob", email: "bob@example.com", name: "Bob Builder" };
const tokensKey = authKeys(Buffer.from(TEST_SECRET_KEY, "base64")).sessionTokens;

let issuer: TestIssuer;
let database: TestDatabase;
let built: TestApp;

const me = (cookie: string) =>
  built.app.inject({ method: "GET", url: "/v1/me", headers: { cookie } });

/** GET /v1/me once the session is gone: nobody is signed in (200, not an error). */
const SIGNED_OUT = { signed_in: false };

function rename(cookie: string, headers: Record<string, string>) {
  return built.app.inject({
    method: "PUT",
    url: "/v1/me",
    headers: { cookie, ...headers },
    payload: { name: "Mallory" },
  });
}

async function storedName(): Promise<string> {
  const row = await database.db.kysely
    .selectFrom("users")
    .select("name")
    .where("email", "=", BOB.email)
    .executeTakeFirstOrThrow();
  return row.name;
}

async function sessionRow() {
  return database.db.kysely.selectFrom("sessions").selectAll().executeTakeFirst();
}

beforeAll(async () => {
  issuer = await startTestIssuer({
    redirectUri: `${PUBLIC_URL}/auth/callback`,
    postLogoutRedirectUri: `${PUBLIC_URL}/`,
    user: BOB,
    jwtAccessTokens: false,
    accessTokenTtl: 30,
  });
  database = await createTestDatabase();
  built = await buildTestApp(database.db, {
    env: {
      ASSAY_PUBLIC_URL: PUBLIC_URL,
      OIDC_ISSUER: issuer.issuer,
      OIDC_CLIENT_ID: issuer.clientId,
      OIDC_CLIENT_SECRET: issuer.clientSecret,
      ASSAY_SESSION_IDLE_MINUTES: "30",
    },
  });
});

afterAll(async () => {
  await built?.app.close();
  await database?.drop();
  await issuer?.close();
});

beforeEach(async () => {
  await database.db.kysely.deleteFrom("sessions").execute();
  await database.db.kysely
    .updateTable("users")
    .set({ name: BOB.name, disabled_at: null })
    .execute();
});

describe("sessions", () => {
  it("takes the email from userinfo when the ID token leaves it out", async () => {
    const { cookie } = await signIn(built.app, PUBLIC_URL);
    expect((await me(cookie)).json()).toMatchObject({ email: BOB.email, name: BOB.name });
  });

  it("refreshes the provider's tokens on the server when the access token nears expiry", async () => {
    const { cookie } = await signIn(built.app, PUBLIC_URL);
    const before = await sessionRow();
    const tokenCalls = issuer.hits.get("/token") ?? 0;

    expect((await me(cookie)).statusCode).toBe(200);

    const after = await sessionRow();
    expect(issuer.hits.get("/token")).toBe(tokenCalls + 1);
    expect(after?.tokens_encrypted.equals(before?.tokens_encrypted ?? Buffer.alloc(0))).toBe(false);
    expect(after?.access_expires_at?.getTime()).toBeGreaterThan(
      before?.access_expires_at?.getTime() ?? 0,
    );
    expect(built.logs.some((l) => l.msg === "session tokens refreshed")).toBe(true);
  });

  it("ends the session when the provider refuses the refresh token", async () => {
    const { cookie } = await signIn(built.app, PUBLIC_URL);
    const row = await sessionRow();
    if (!row) throw new Error("no session row");
    const context = `assay-session:${row.id_hash.toString("hex")}`;
    const tokens = JSON.parse(open(tokensKey, row.tokens_encrypted, context) ?? "{}") as object;
    const revoked = seal(
      tokensKey,
      JSON.stringify({ ...tokens, refresh_token: "revoked" }),
      context,
    );
    await database.db.kysely.updateTable("sessions").set({ tokens_encrypted: revoked }).execute();

    expect((await me(cookie)).json()).toEqual(SIGNED_OUT);
    expect(await sessionRow()).toBeUndefined();
  });

  it("ends a session idle for longer than ASSAY_SESSION_IDLE_MINUTES", async () => {
    const { cookie } = await signIn(built.app, PUBLIC_URL);
    await database.db.kysely
      .updateTable("sessions")
      .set({ last_seen_at: new Date(Date.now() - 31 * 60_000) })
      .execute();
    expect((await me(cookie)).json()).toEqual(SIGNED_OUT);
    expect(await sessionRow()).toBeUndefined();
  });

  it("writes its last use a tenth of the idle lifetime apart (3 of 30 minutes), not every read", async () => {
    const { cookie } = await signIn(built.app, PUBLIC_URL);
    const lastSeen = async (minutesAgo: number) => {
      const before = new Date(Date.now() - minutesAgo * 60_000);
      await database.db.kysely.updateTable("sessions").set({ last_seen_at: before }).execute();
      expect((await me(cookie)).json()).toMatchObject({ signed_in: true });
      return { before, after: (await sessionRow())?.last_seen_at };
    };
    const recent = await lastSeen(2);
    expect(recent.after).toEqual(recent.before);
    const older = await lastSeen(4);
    expect(older.after!.getTime()).toBeGreaterThan(Date.now() - 60_000);
  });

  it("ends a session at its absolute lifetime however active it is", async () => {
    const { cookie } = await signIn(built.app, PUBLIC_URL);
    await database.db.kysely
      .updateTable("sessions")
      .set({ expires_at: new Date(Date.now() - 1000) })
      .execute();
    expect((await me(cookie)).json()).toEqual(SIGNED_OUT);
  });

  it("ends the sessions of a user who is disabled", async () => {
    const { cookie } = await signIn(built.app, PUBLIC_URL);
    await database.db.kysely.updateTable("users").set({ disabled_at: new Date() }).execute();
    expect((await me(cookie)).json()).toEqual(SIGNED_OUT);
  });

  it("keeps the tokens encrypted at rest, bound to their session", async () => {
    await signIn(built.app, PUBLIC_URL);
    const row = await sessionRow();
    if (!row) throw new Error("no session row");
    const stored = row.tokens_encrypted.toString("latin1");
    expect(stored).not.toMatch(/eyJ|access_token|refresh_token/);
    expect(open(tokensKey, row.tokens_encrypted, "assay-session:another")).toBeUndefined();
  });
});

describe("cookies that are not a session", () => {
  it("answers who is signed in without an error when nobody is: 200, signed_in false", async () => {
    const res = await built.app.inject({ method: "GET", url: "/v1/me" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["cache-control"]).toBe("no-store");
    expect(res.json()).toEqual(SIGNED_OUT);
  });

  it("treats a forged cookie, a tampered signature and a made-up id as nobody signed in", async () => {
    const { cookie } = await signIn(built.app, PUBLIC_URL);
    const value = cookie.split("=").slice(1).join("=");
    const [id] = value.split(".");
    for (const forged of [
      "assay_session=not-a-session",
      `assay_session=${id}.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`,
      `assay_session=${id}`,
      `assay_session=${"A".repeat(43)}.${value.split(".")[1]}`,
    ]) {
      expect((await me(forged)).json()).toEqual(SIGNED_OUT);
    }
    expect((await me(cookie)).statusCode).toBe(200);
  });

  it("does not break public reading: a stale cookie just means signed out", async () => {
    const res = await built.app.inject({
      method: "GET",
      url: "/v1/catalog",
      headers: { cookie: "assay_session=stale.value" },
    });
    expect(res.statusCode).toBe(200);
  });
});

describe("CSRF on changes made with the session cookie", () => {
  it("refuses a change from another Origin (403) and changes nothing", async () => {
    const { cookie } = await signIn(built.app, PUBLIC_URL);
    const csrf = (await me(cookie)).json().csrf_token as string;
    const res = await rename(cookie, { origin: "https://evil.example", "x-csrf-token": csrf });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe("csrf_refused");
    expect(await storedName()).toBe(BOB.name);
  });

  it("refuses a change without Origin, or without or with a wrong x-csrf-token", async () => {
    const { cookie } = await signIn(built.app, PUBLIC_URL);
    const csrf = (await me(cookie)).json().csrf_token as string;
    expect((await rename(cookie, { "x-csrf-token": csrf })).statusCode).toBe(403);
    expect((await rename(cookie, { origin: PUBLIC_URL })).statusCode).toBe(403);
    expect((await rename(cookie, { origin: PUBLIC_URL, "x-csrf-token": "guess" })).statusCode).toBe(
      403,
    );
    expect(await storedName()).toBe(BOB.name);
  });

  it("accepts the change from Assay's own page with the session's token", async () => {
    const { cookie } = await signIn(built.app, PUBLIC_URL);
    const csrf = (await me(cookie)).json().csrf_token as string;
    const res = await rename(cookie, { origin: PUBLIC_URL, "x-csrf-token": csrf });
    expect(res.statusCode).toBe(200);
    expect(await storedName()).toBe("Mallory");
  });
});

describe("an issuer that cannot be reached", () => {
  let down: TestApp;
  let downDb: TestDatabase;

  beforeAll(async () => {
    downDb = await createTestDatabase();
    down = await buildTestApp(downDb.db, {
      env: {
        ASSAY_PUBLIC_URL: PUBLIC_URL,
        OIDC_ISSUER: "http://127.0.0.1:9/realms/qa",
        OIDC_CLIENT_ID: "assay",
        OIDC_CLIENT_SECRET: "secret",
      },
    });
  });

  afterAll(async () => {
    await down?.app.close();
    await downDb?.drop();
  });

  it("says so with a 503 page at sign-in, never a 500, and keeps serving results", async () => {
    const login = await down.app.inject({
      method: "GET",
      url: "/auth/login?return_to=/builds",
      headers: { host: new URL(PUBLIC_URL).host },
    });
    expect(login.statusCode).toBe(503);
    expect(login.headers["content-type"]).toContain("text/html");
    expect(login.body).toContain("cannot be reached");
    // Sign in again, once the provider is back, returns to the page sign-in started from.
    expect(login.body).toContain('href="/auth/login?return_to=%2Fbuilds"');
    expect((await down.app.inject({ method: "GET", url: "/v1/catalog" })).statusCode).toBe(200);
  });

  it("answers 503 to an access token it cannot check, not 401", async () => {
    const res = await down.app.inject({
      method: "GET",
      url: "/v1/me",
      headers: { authorization: "Bearer eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln" },
    });
    expect(res.statusCode).toBe(503);
  });
});
