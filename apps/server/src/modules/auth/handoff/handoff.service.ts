import { createHash, randomBytes } from "node:crypto";
import type { Kysely } from "kysely";
import type { Database } from "../../../db/schema.js";
import { AppError } from "../../../errors.js";
import { open, seal } from "../../../secret-box.js";
import { sameSecret } from "../principal.js";
import type { SessionTokens } from "../sessions.service.js";
import * as repo from "./handoff.repo.js";

/**
 * The one-time code that carries a sign-in from ASSAY_PUBLIC_URL (where the provider's redirect
 * and the sign-in state belong) to a data-harmonization host, which exchanges it server-side
 * for a session of its own. A code is random (256 bits), kept as its SHA-256, good for
 * HANDOFF_TTL_MS, for one host, for the browser that asked (a nonce in that host's cookie),
 * and once.
 */

export const HANDOFF_TTL_MS = 60_000;
/** Rows older than this are swept when a new code is made. */
const KEEP_MS = 60 * 60 * 1000;

export interface HandoffContext {
  db: Kysely<Database>;
  /** AES-256-GCM key of the tokens a code carries. */
  tokensKey: Buffer;
}

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest();
const context = (codeHash: Buffer) => `assay-handoff:${codeHash.toString("hex")}`;

/** A nonce for the data-harmonization host's cookie and the hash that travels to sign-in. */
export function browserNonce(): { nonce: string; hash: string } {
  const nonce = randomBytes(32).toString("base64url");
  return { nonce, hash: sha256(nonce).toString("base64url") };
}

/** A browser hash as it arrives in a URL: 32 bytes of base64url, else undefined. */
export function parseBrowserHash(raw: string | undefined): Buffer | undefined {
  if (raw === undefined || !/^[A-Za-z0-9_-]{43}$/.test(raw)) return undefined;
  return Buffer.from(raw, "base64url");
}

/** Makes a code for `host`; returns it once, for the redirect there. */
export async function issueHandoff(
  ctx: HandoffContext,
  input: {
    host: string;
    browserHash: Buffer;
    userId: number;
    tokens: SessionTokens;
    returnTo: string;
  },
): Promise<string> {
  const code = randomBytes(32).toString("base64url");
  const codeHash = sha256(code);
  await repo.deleteHandoffsBefore(ctx.db, new Date(Date.now() - KEEP_MS));
  await repo.insertHandoff(ctx.db, {
    code_hash: codeHash,
    host: input.host,
    browser_hash: input.browserHash,
    user_id: input.userId,
    tokens_encrypted: seal(ctx.tokensKey, JSON.stringify(input.tokens), context(codeHash)),
    return_to: input.returnTo,
    expires_at: new Date(Date.now() + HANDOFF_TTL_MS),
  });
  return code;
}

const refused = (status: number, code: string, message: string) =>
  new AppError(status, code, `${message} Sign in again.`);

/**
 * Exchanges a code at `host` for the sign-in it carries. Any code presented is used up, even
 * when refused, so a code seen at the wrong host or in the wrong browser cannot be tried again.
 * Throws an AppError saying why: unknown or altered, used, expired, another host, another browser.
 */
export async function redeemHandoff(
  ctx: HandoffContext,
  input: { code: string | undefined; host: string; browserNonce: string | undefined },
): Promise<{ userId: number; tokens: SessionTokens; returnTo: string }> {
  const code = input.code ?? "";
  const unknown = refused(
    400,
    "handoff_invalid",
    "This sign-in link is not valid: it was altered or never issued.",
  );
  if (!/^[A-Za-z0-9_-]{43}$/.test(code)) throw unknown;
  const codeHash = sha256(code);
  const row = await repo.takeHandoff(ctx.db, codeHash);
  if (!row) throw unknown;
  if (row.used_at !== null || row.tokens_encrypted === null) {
    throw refused(
      400,
      "handoff_used",
      "This sign-in link was already used; each link signs in once.",
    );
  }
  if (row.expires_at.getTime() <= Date.now()) {
    throw refused(
      400,
      "handoff_expired",
      `This sign-in link expired (it is good for ${HANDOFF_TTL_MS / 1000} seconds).`,
    );
  }
  if (row.host !== input.host.toLowerCase()) {
    throw refused(403, "handoff_wrong_host", "This sign-in link was made for another address.");
  }
  const browserOk =
    input.browserNonce !== undefined &&
    sameSecret(sha256(input.browserNonce).toString("hex"), row.browser_hash.toString("hex"));
  if (!browserOk) {
    throw refused(
      403,
      "handoff_other_browser",
      "This sign-in link was started in another browser, or this browser's sign-in cookie expired.",
    );
  }
  const text = open(ctx.tokensKey, row.tokens_encrypted, context(codeHash));
  if (text === undefined) throw unknown;
  return {
    userId: row.user_id,
    tokens: JSON.parse(text) as SessionTokens,
    returnTo: row.return_to,
  };
}
