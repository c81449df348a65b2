import { createRemoteJWKSet, jwtVerify } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signInWithPassword } from "../../../../../e2e/support/oidc-login.js";
import { TEST_SECRET_KEY } from "../../../test/build-test-app.js";
import {
  startListeningApp,
  redeemCode,
  type ListeningTestApp,
} from "../../../test/identity-app.js";
import { createTestDatabase, type TestDatabase } from "../../../test/test-database.js";
import { deriveKey } from "../../secret-key.js";
import { open } from "../../secret-box.js";
import { createUser } from "../users/users.service.js";
import { disableUser } from "./account-changes.js";
import { loadSigningKeys } from "./keys.js";

// Signing keys stored encrypted and reused; provider state in PostgreSQL, shared by servers.
let database: TestDatabase;
let first: ListeningTestApp;
let second: ListeningTestApp;
const USER = { email: "qa@example.com", password: "a long enough secret" };

async function jwksOf(app: ListeningTestApp) {
  const response = await fetch(`${app.address}/oidc/jwks`);
  return ((await response.json()) as { keys: Record<string, string>[] }).keys;
}

function refresh(app: ListeningTestApp, refreshToken: string) {
  const basic = Buffer.from(`${app.clientId}:${app.clientSecret}`).toString("base64");
  return fetch(`${app.address}/oidc/token`, {
    method: "POST",
    headers: {
      authorization: `Basic ${basic}`,
      "content-type": "application/x-www-form-urlencoded",
    },
    body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: refreshToken }),
  });
}

beforeAll(async () => {
  database = await createTestDatabase();
  await createUser(database.db.kysely, { ...USER, name: "QA" });
  first = await startListeningApp(database.db);
  // A second server of the same installation: same database, secret and public URL.
  second = await startListeningApp(database.db, { publicUrl: first.publicUrl });
});
afterAll(async () => {
  await first?.app.close();
  await second?.app.close();
  await database?.drop();
});

describe("the provider's keys and state", () => {
  it("stores its signing keys encrypted: the rows hold no private key in clear", async () => {
    // The keys are made when the provider first serves a request.
    expect(await jwksOf(first)).toHaveLength(2);
    const { rows } = await database.db.pool.query<{
      kid: string;
      alg: string;
      jwk_encrypted: Buffer;
    }>("SELECT kid, alg, jwk_encrypted FROM oidc_signing_keys ORDER BY alg");
    expect(rows.map((r) => r.alg)).toEqual(["ES256", "RS256"]);
    const key = deriveKey(Buffer.from(TEST_SECRET_KEY, "base64"), "oidc-signing-keys");
    for (const row of rows) {
      const jwk = JSON.parse(open(key, row.jwk_encrypted, `oidc-signing-key:${row.kid}`)!) as {
        d: string;
      };
      expect(jwk.d.length).toBeGreaterThan(20);
      const stored = row.jwk_encrypted.toString("latin1");
      expect(stored).not.toContain(jwk.d);
      expect(stored).not.toContain(Buffer.from(jwk.d, "base64url").toString("latin1"));
      expect(stored).not.toContain('"kty"');
    }
    const otherSecret = Buffer.alloc(32, 9);
    const otherKey = deriveKey(otherSecret, "oidc-signing-keys");
    expect(
      open(otherKey, rows[0]!.jwk_encrypted, `oidc-signing-key:${rows[0]!.kid}`),
    ).toBeUndefined();
    await expect(loadSigningKeys(database.db.kysely, otherSecret)).rejects.toThrow(
      /sealed with another secret key: set ASSAY_SECRET_KEY/,
    );
  });

  it("keeps the same keys across servers and restarts, and serves only public keys", async () => {
    const keys = await jwksOf(first);
    expect(keys).toHaveLength(2);
    expect(await jwksOf(second)).toEqual(keys);
    for (const key of keys) expect(key).not.toHaveProperty("d");
  });

  it("redeems a code issued by one server at another, and refreshes there", async () => {
    const { callback, request } = await signInWithPassword({ ...first, ...USER });
    const code = callback.searchParams.get("code") as string;
    const response = await redeemCode(second, {
      code,
      codeVerifier: request.codeVerifier,
      tokenUrl: `${second.address}/oidc/token`,
    });
    expect(response.status).toBe(200);
    const tokens = (await response.json()) as Record<string, string>;
    const jwks = createRemoteJWKSet(new URL(`${first.address}/oidc/jwks`));
    const { payload } = await jwtVerify(tokens.access_token as string, jwks, {
      issuer: first.issuer,
      audience: `${first.publicUrl}/v1`,
    });
    expect(payload.sub).toMatch(/^\d+$/);

    const refreshed = await refresh(first, tokens.refresh_token as string);
    expect(refreshed.status).toBe(200);
    const next = (await refreshed.json()) as Record<string, string>;
    await jwtVerify(next.access_token as string, jwks, { issuer: first.issuer });

    // The state is in PostgreSQL, where both servers find it, not in the library's memory.
    const { rows } = await database.db.pool.query<{ model: string }>(
      "SELECT DISTINCT model FROM oidc_models ORDER BY model",
    );
    expect(rows.map((r) => r.model)).toEqual(
      expect.arrayContaining(["AuthorizationCode", "Grant", "RefreshToken", "Session"]),
    );

    // A code works once; replaying it revokes what it gave (RFC 9700 section 4.2.1).
    const again = await redeemCode(first, { code, codeVerifier: request.codeVerifier });
    expect(again.status).toBe(400);
    expect(((await again.json()) as { error: string }).error).toBe("invalid_grant");
    const revoked = await refresh(second, next.refresh_token ?? (tokens.refresh_token as string));
    expect(((await revoked.json()) as { error: string }).error).toBe("invalid_grant");
  });

  it("ends a disabled user's grants: their refresh token stops working", async () => {
    const { callback, request } = await signInWithPassword({ ...first, ...USER });
    const code = callback.searchParams.get("code") as string;
    const tokens = (await (
      await redeemCode(first, { code, codeVerifier: request.codeVerifier })
    ).json()) as Record<string, string>;
    expect((await refresh(second, tokens.refresh_token as string)).status).toBe(200);
    await disableUser(database.db.kysely, USER.email);
    const refused = await refresh(second, tokens.refresh_token as string);
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: string }).error).toBe("invalid_grant");
  });
});
