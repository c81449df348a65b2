import { createPublicKey, randomUUID } from "node:crypto";
import { SignJWT, base64url, type JWTPayload } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, TEST_SECRET_KEY, type TestApp } from "../../../test/build-test-app.js";
import { signIn } from "../../../test/sign-in-flow.js";
import { startTestIssuer, type TestIssuer } from "../../../test/test-issuer.js";
import { createTestDatabase, type TestDatabase } from "../../../test/test-database.js";
import { authKeys } from "./auth.setup.js";
import { open } from "../../secret-box.js";

/**
 * Access tokens of the configured issuer sent as bearer tokens (CLI, CI, scripts). Every
 * attack answers 401 and changes nothing: each is tried on PUT /v1/me, renaming the user.
 */

const PUBLIC_URL = "http://assay.test";
const CAROL = { sub: "ext-carol", email: "carol@example.com", name: "Carol Checker" };

let issuer: TestIssuer;
let database: TestDatabase;
let built: TestApp;
let sessionCookie: string;

const now = () => Math.floor(Date.now() / 1000);

function claims(overrides: JWTPayload = {}): JWTPayload {
  return {
    iss: issuer.issuer,
    aud: issuer.clientId,
    sub: CAROL.sub,
    iat: now(),
    exp: now() + 300,
    jti: randomUUID(),
    ...overrides,
  };
}

function rename(token: string) {
  return built.app.inject({
    method: "PUT",
    url: "/v1/me",
    headers: { authorization: `Bearer ${token}` },
    payload: { name: "Mallory" },
  });
}

async function storedName(): Promise<string> {
  const row = await database.db.kysely
    .selectFrom("users")
    .select("name")
    .where("email", "=", CAROL.email)
    .executeTakeFirstOrThrow();
  return row.name;
}

const encode = (value: object) => base64url.encode(JSON.stringify(value));

beforeAll(async () => {
  issuer = await startTestIssuer({
    redirectUri: `${PUBLIC_URL}/auth/callback`,
    postLogoutRedirectUri: `${PUBLIC_URL}/`,
    user: CAROL,
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
  // Carol signs in once in a browser, which makes her an Assay user.
  sessionCookie = (await signIn(built.app, PUBLIC_URL)).cookie;
});

afterAll(async () => {
  await built?.app.close();
  await database?.drop();
  await issuer?.close();
});

describe("bearer access tokens that are refused", () => {
  const attacks: [string, () => Promise<string>, string][] = [
    [
      "alg none",
      async () => `${encode({ alg: "none", typ: "JWT" })}.${encode(claims())}.`,
      "its algorithm is not allowed",
    ],
    [
      "HS256 signed with the issuer's public key",
      async () => {
        const jwks = (await (await fetch(`${issuer.issuer}/jwks`)).json()) as { keys: object[] };
        const pem = createPublicKey({ key: jwks.keys[0] as never, format: "jwk" })
          .export({ type: "spki", format: "pem" })
          .toString();
        return new SignJWT(claims())
          .setProtectedHeader({ alg: "HS256", kid: "current" })
          .sign(new TextEncoder().encode(pem));
      },
      "its algorithm is not allowed",
    ],
    [
      "expired",
      () => issuer.mint(claims({ iat: now() - 900, exp: now() - 120 })),
      "it has expired",
    ],
    ["not yet valid", () => issuer.mint(claims({ nbf: now() + 600 })), "it is not valid yet"],
    [
      "from another issuer",
      () => issuer.mint(claims({ iss: "https://evil.example" })),
      "issued by another issuer",
    ],
    [
      "for another audience",
      () => issuer.mint(claims({ aud: "another-api" })),
      "meant for another audience",
    ],
    [
      "with a tampered payload",
      async () => {
        const [header, , signature] = (await issuer.mint(claims())).split(".");
        return `${header}.${encode(claims({ sub: "someone-else" }))}.${signature}`;
      },
      "its signature does not match",
    ],
    [
      "signed by a key rotated out",
      () => issuer.mint(claims(), { key: issuer.retiredKey }),
      "no current key of the issuer signed it",
    ],
    [
      "signed by a rotated-out key under the current kid",
      () => issuer.mint(claims(), { key: issuer.retiredKey, kid: "current" }),
      "its signature does not match",
    ],
    [
      "an ID token (nonce) posing as an access token",
      () => issuer.mint(claims({ nonce: "n" })),
      "it is an ID token",
    ],
    ["a logout token", () => issuer.mint(claims(), { typ: "logout+jwt" }), "not an access token"],
    ["without an expiry", () => issuer.mint(claims({ exp: undefined })), "its exp claim"],
    [
      "for a user Assay does not know",
      () => issuer.mint(claims({ sub: "ext-stranger" })),
      "not an active Assay user",
    ],
  ];

  it.each(attacks)("refuses a token %s with 401, changing nothing", async (_name, make, reason) => {
    const res = await rename(await make());
    expect(res.statusCode).toBe(401);
    expect(res.json().error.code).toBe("unauthorized");
    expect(res.json().error.message).toContain(reason);
    expect(await storedName()).toBe(CAROL.name);
  });

  it("answers 401 without any credential", async () => {
    const res = await built.app.inject({
      method: "PUT",
      url: "/v1/me",
      payload: { name: "Mallory" },
    });
    expect(res.statusCode).toBe(401);
    expect(await storedName()).toBe(CAROL.name);
  });

  it("fetches the JWKS at most once per cooldown however many unknown kids arrive", async () => {
    const before = issuer.hits.get("/jwks") ?? 0;
    for (let i = 0; i < 20; i++) {
      const token = await issuer.mint(claims(), { key: issuer.retiredKey, kid: `random-${i}` });
      expect((await rename(token)).statusCode).toBe(401);
    }
    expect((issuer.hits.get("/jwks") ?? 0) - before).toBeLessThanOrEqual(1);
  });
});

describe("bearer access tokens that are accepted", () => {
  it("accepts the issuer's own access token and needs no CSRF token (no cookie involved)", async () => {
    const row = await database.db.kysely
      .selectFrom("sessions")
      .selectAll()
      .executeTakeFirstOrThrow();
    const key = authKeys(Buffer.from(TEST_SECRET_KEY, "base64")).sessionTokens;
    const stored = open(key, row.tokens_encrypted, `assay-session:${row.id_hash.toString("hex")}`);
    const accessToken = (JSON.parse(stored ?? "{}") as { access_token: string }).access_token;
    expect(accessToken.split(".")).toHaveLength(3);

    const res = await built.app.inject({
      method: "GET",
      url: "/v1/me",
      headers: { authorization: `Bearer ${accessToken}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ email: CAROL.email, csrf_token: null });
  });

  it("lets a valid token change the profile, within the clock tolerance", async () => {
    const res = await rename(await issuer.mint(claims({ exp: now() - 10 })));
    expect(res.statusCode).toBe(200);
    expect(await storedName()).toBe("Mallory");
    await database.db.kysely.updateTable("users").set({ name: CAROL.name }).execute();
  });

  it("still knows the browser session alongside", async () => {
    const res = await built.app.inject({
      method: "GET",
      url: "/v1/me",
      headers: { cookie: sessionCookie },
    });
    expect(res.statusCode).toBe(200);
  });
});
