import { createHash, randomBytes } from "node:crypto";
import type { FastifyBaseLogger } from "fastify";
import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import type { Principal } from "./access.js";
import { open, seal } from "../../secret-box.js";
import * as repo from "./sessions.repo.js";

/** What the provider gave at sign-in or refresh; kept encrypted, never sent to the browser. */
export interface SessionTokens {
  access_token: string;
  refresh_token?: string;
  id_token?: string;
  /** Epoch milliseconds when the access token expires, when the provider said. */
  expires_at?: number;
}

/** The provider's refresh; throws RefreshRejected when it refuses the refresh token. */
export type RefreshTokens = (refreshToken: string) => Promise<SessionTokens>;

/** The provider refused the refresh token (revoked, expired, user disabled): the session ends. */
export class RefreshRejected extends Error {
  override readonly name = "RefreshRejected";
}

export interface SessionContext {
  db: Kysely<Database>;
  /** AES-256-GCM key of the tokens column. */
  tokensKey: Buffer;
  idleMs: number;
  maxMs: number;
  refresh: RefreshTokens;
  log: FastifyBaseLogger;
}

export type UserPrincipal = Extract<Principal, { kind: "user" }>;

export interface ActiveSession {
  idHash: Buffer;
  csrfToken: string;
  principal: UserPrincipal;
}

/** Refresh this long before the access token expires, so no request carries an expired one. */
const REFRESH_MARGIN_MS = 60_000;
/** How long one request may hold the refresh before another may try. */
const REFRESH_CLAIM_SECONDS = 30;

/** What the database keeps of a session id: its SHA-256. */
export function hashSessionId(id: string): Buffer {
  return createHash("sha256").update(id, "utf8").digest();
}

const context = (idHash: Buffer) => `assay-session:${idHash.toString("hex")}`;

function sealTokens(ctx: SessionContext, idHash: Buffer, tokens: SessionTokens): Buffer {
  return seal(ctx.tokensKey, JSON.stringify(tokens), context(idHash));
}

function openTokens(ctx: SessionContext, row: repo.SessionRow): SessionTokens | undefined {
  const text = open(ctx.tokensKey, row.tokens_encrypted, context(row.id_hash));
  return text === undefined ? undefined : (JSON.parse(text) as SessionTokens);
}

const expiryOf = (tokens: SessionTokens) =>
  tokens.expires_at === undefined ? null : new Date(tokens.expires_at);

/**
 * Starts a session for `userId` with a fresh random id: the id is returned once for the cookie,
 * only its hash is stored. Called at every sign-in, so a session id is never carried over.
 */
export async function createSession(
  ctx: SessionContext,
  userId: number,
  tokens: SessionTokens,
): Promise<{ id: string; csrfToken: string; expiresAt: Date }> {
  const id = randomBytes(32).toString("base64url");
  const idHash = hashSessionId(id);
  const csrfToken = randomBytes(32).toString("base64url");
  const expiresAt = new Date(Date.now() + ctx.maxMs);
  await repo.deleteExpiredSessions(ctx.db, Math.floor(ctx.idleMs / 1000));
  await repo.insertSession(ctx.db, {
    id_hash: idHash,
    user_id: userId,
    tokens_encrypted: sealTokens(ctx, idHash, tokens),
    access_expires_at: expiryOf(tokens),
    csrf_token: csrfToken,
    expires_at: expiresAt,
  });
  return { id, csrfToken, expiresAt };
}

function isOver(row: repo.SessionRow, ctx: SessionContext, now: number): string | undefined {
  if (row.expires_at.getTime() <= now) return "absolute lifetime reached";
  if (row.last_seen_at.getTime() + ctx.idleMs <= now) return "idle lifetime reached";
  if (row.disabled_at) return "user disabled";
  return undefined;
}

/**
 * The live session with this id, or undefined (unknown, ended, expired, or its user disabled).
 * Refreshes the provider's tokens when the access token nears its expiry; a refresh the
 * provider refuses ends the session, one it cannot answer is retried on a later request.
 */
export async function findActiveSession(
  ctx: SessionContext,
  id: string,
): Promise<ActiveSession | undefined> {
  const idHash = hashSessionId(id);
  const row = await repo.findSession(ctx.db, idHash);
  if (!row) return undefined;
  const now = Date.now();
  const over = isOver(row, ctx, now);
  if (over) {
    await repo.deleteSession(ctx.db, idHash);
    ctx.log.info({ userId: row.user_id, reason: over }, "session ended");
    return undefined;
  }
  const nearExpiry =
    row.access_expires_at !== null && row.access_expires_at.getTime() - now < REFRESH_MARGIN_MS;
  if (nearExpiry && !(await refreshTokens(ctx, row))) return undefined;
  await repo.touchSession(ctx.db, idHash, touchEverySeconds(ctx.idleMs));
  return {
    idHash,
    csrfToken: row.csrf_token,
    principal: {
      kind: "user",
      id: row.user_id,
      email: row.email,
      name: row.name,
      admin: row.is_admin,
    },
  };
}

/** False when the session ended because the provider refused the refresh. */
async function refreshTokens(ctx: SessionContext, row: repo.SessionRow): Promise<boolean> {
  const tokens = openTokens(ctx, row);
  if (!tokens?.refresh_token) return true;
  if (!(await repo.claimRefresh(ctx.db, row.id_hash, REFRESH_CLAIM_SECONDS))) return true;
  try {
    const fresh = await ctx.refresh(tokens.refresh_token);
    // Cognito (without rotation) returns no new refresh token: the old one stays valid.
    const next: SessionTokens = {
      ...fresh,
      refresh_token: fresh.refresh_token ?? tokens.refresh_token,
      id_token: fresh.id_token ?? tokens.id_token,
    };
    await repo.saveRefreshedTokens(
      ctx.db,
      row.id_hash,
      sealTokens(ctx, row.id_hash, next),
      expiryOf(next),
    );
    ctx.log.info({ userId: row.user_id }, "session tokens refreshed");
    return true;
  } catch (error) {
    if (error instanceof RefreshRejected) {
      await repo.deleteSession(ctx.db, row.id_hash);
      ctx.log.info(
        { userId: row.user_id, reason: error.message },
        "session ended: refresh refused",
      );
      return false;
    }
    await repo.releaseRefresh(ctx.db, row.id_hash);
    const reason = error instanceof Error ? error.message : String(error);
    ctx.log.warn({ userId: row.user_id, reason }, "token refresh failed; will retry");
    return true;
  }
}

/** Ends the session; returns its tokens so the provider's logout can be given the ID token. */
export async function endSession(
  ctx: SessionContext,
  id: string,
): Promise<SessionTokens | undefined> {
  const idHash = hashSessionId(id);
  const row = await repo.deleteSession(ctx.db, idHash);
  if (!row) return undefined;
  const text = open(ctx.tokensKey, row.tokens_encrypted, context(idHash));
  return text === undefined ? undefined : (JSON.parse(text) as SessionTokens);
}

/**
 * How often a session's last use is written: a tenth of the idle lifetime, from one to five
 * minutes. Every write ends the server's kept read answers (http/answer-cache.ts), so a team of
 * signed-in readers should write rarely; a tenth keeps the idle lifetime right within 10%.
 */
export function touchEverySeconds(idleMs: number): number {
  return Math.min(300, Math.max(60, Math.round(idleMs / 10 / 1000)));
}

/** The CSRF token of a live session, without touching or refreshing it (for sign-out). */
export async function sessionCsrfToken(
  ctx: SessionContext,
  id: string,
): Promise<string | undefined> {
  const row = await repo.findSession(ctx.db, hashSessionId(id));
  return row && !isOver(row, ctx, Date.now()) ? row.csrf_token : undefined;
}
