import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK } from "jose";
import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import { StartRefused } from "../../config.js";
import { deriveKey } from "../../secret-key.js";
import { open, seal } from "../../secret-box.js";
import * as repo from "./signing-keys.repo.js";

/**
 * The embedded provider's signing keys: generated once, on the first start, and kept in
 * PostgreSQL encrypted (AES-256-GCM, key derived from ASSAY_SECRET_KEY, each bound to its kid),
 * so that tokens stay valid across restarts and servers, and a database dump alone does not
 * let anyone mint tokens.
 */

/** ID tokens: RS256, what every OpenID client supports. */
export const ID_TOKEN_ALG = "RS256";
/** Access tokens for the Assay API. */
export const ACCESS_TOKEN_ALG = "ES256";

const KEY_PURPOSE = "oidc-signing-keys";
const PRIVATE_MEMBERS = ["d", "p", "q", "dp", "dq", "qi", "oth", "k"] as const;

const contextOf = (kid: string) => `oidc-signing-key:${kid}`;

async function generateSigningKey(alg: string): Promise<JWK> {
  const { privateKey, publicKey } = await generateKeyPair(alg, {
    extractable: true,
    modulusLength: 2048,
  });
  const kid = await calculateJwkThumbprint(await exportJWK(publicKey));
  return { ...(await exportJWK(privateKey)), kid, alg, use: "sig" };
}

/**
 * The private signing keys (JWKs), newest first; made and stored on the first start. Stops with
 * a clear error when they were encrypted under another secret key.
 */
export async function loadSigningKeys(db: Kysely<Database>, secret: Buffer): Promise<JWK[]> {
  const key = deriveKey(secret, KEY_PURPOSE);
  let rows = await repo.listSigningKeys(db);
  if (rows.length === 0) {
    rows = await repo.withSigningKeysLock(db, async (trx) => {
      const existing = await repo.listSigningKeys(trx);
      if (existing.length > 0) return existing;
      const fresh = await Promise.all([ID_TOKEN_ALG, ACCESS_TOKEN_ALG].map(generateSigningKey));
      const made = fresh.map((jwk) => ({
        kid: jwk.kid as string,
        alg: jwk.alg as string,
        jwk_encrypted: seal(key, JSON.stringify(jwk), contextOf(jwk.kid as string)),
      }));
      await repo.insertSigningKeys(trx, made);
      // Read back, so that every server lists the keys in the same order.
      return repo.listSigningKeys(trx);
    });
  }
  return rows.map((row) => {
    const text = open(key, row.jwk_encrypted, contextOf(row.kid));
    if (text === undefined) {
      throw new StartRefused(
        "the sign-in keys in the database were sealed with another secret key: set ASSAY_SECRET_KEY (or <ASSAY_DATA_DIR>/secret-key) to the key this database was set up with; every server on one database needs the same one.",
      );
    }
    return JSON.parse(text) as JWK;
  });
}

/** The public half of a key set, as served at the provider's jwks endpoint. */
export function publicJwks(keys: readonly JWK[]): { keys: JWK[] } {
  return {
    keys: keys.map((jwk) => {
      const copy: JWK = { ...jwk };
      for (const member of PRIVATE_MEMBERS) delete copy[member];
      return copy;
    }),
  };
}
