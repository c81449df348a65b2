import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import { AppError } from "../../errors.js";
import * as repo from "./tokens.repo.js";

/** What a service token may do: send results (ingest), or manage Assay (admin). */
export const TOKEN_SCOPES = ["ingest", "admin"] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];

// A recognisable prefix lets secret scanners find leaked tokens.
const PREFIX = "assay_";

export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

export interface CreatedToken {
  token: string;
  row: repo.TokenRow;
}

/**
 * Creates a service token. Only its hash is stored: the token itself is returned this once and
 * cannot be shown again.
 */
export async function createToken(
  db: Kysely<Database>,
  name: string,
  scopes: TokenScope[],
): Promise<CreatedToken> {
  if (!/^[A-Za-z0-9][A-Za-z0-9 ._-]{0,63}$/.test(name)) {
    throw new AppError(
      400,
      "invalid_token_name",
      "Token names are 1-64 letters, digits, spaces, '.', '_' or '-'.",
    );
  }
  const token = PREFIX + randomBytes(32).toString("base64url");
  try {
    return { token, row: await repo.insertToken(db, name, hashToken(token), scopes) };
  } catch (error) {
    if ((error as { code?: string }).code === "23505") {
      throw new AppError(
        409,
        "token_name_taken",
        `A token named "${name}" already exists; pick another name.`,
      );
    }
    throw error;
  }
}

export const listTokens = repo.listTokens;

export async function revokeToken(db: Kysely<Database>, name: string): Promise<void> {
  if (!(await repo.revokeToken(db, name))) {
    throw new AppError(404, "not_found", `No active token named "${name}".`);
  }
}

export interface TokenPrincipal {
  kind: "service_token";
  name: string;
  scopes: readonly TokenScope[];
}

function sameSecret(a: string, b: string): boolean {
  const ha = Buffer.from(hashToken(a), "hex");
  const hb = Buffer.from(hashToken(b), "hex");
  return timingSafeEqual(ha, hb);
}

/**
 * Who a bearer token belongs to: the ASSAY_INGEST_TOKEN of the environment (ingest only), or a
 * stored, unrevoked service token. Undefined for anything else.
 */
export async function verifyToken(
  db: Kysely<Database>,
  token: string,
  envIngestToken: string | undefined,
): Promise<TokenPrincipal | undefined> {
  if (envIngestToken && sameSecret(token, envIngestToken)) {
    return { kind: "service_token", name: "ASSAY_INGEST_TOKEN", scopes: ["ingest"] };
  }
  if (!token.startsWith(PREFIX)) return undefined;
  const row = await repo.useToken(db, hashToken(token));
  return row
    ? { kind: "service_token", name: row.name, scopes: row.scopes as TokenScope[] }
    : undefined;
}
