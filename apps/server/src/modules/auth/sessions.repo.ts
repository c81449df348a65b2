import { sql, type Kysely } from "kysely";
import type { Database } from "../../db/schema.js";

/** A session with the user it belongs to, as the principal resolver needs it. */
export interface SessionRow {
  id_hash: Buffer;
  user_id: number;
  tokens_encrypted: Buffer;
  access_expires_at: Date | null;
  refreshing_until: Date | null;
  csrf_token: string;
  created_at: Date;
  last_seen_at: Date;
  expires_at: Date;
  email: string;
  name: string;
  is_admin: boolean;
  disabled_at: Date | null;
}

/** Stores a new session row. */
export async function insertSession(
  db: Kysely<Database>,
  row: {
    id_hash: Buffer;
    user_id: number;
    tokens_encrypted: Buffer;
    access_expires_at: Date | null;
    csrf_token: string;
    expires_at: Date;
  },
): Promise<void> {
  await db.insertInto("sessions").values(row).execute();
}

/** The session with this id hash, joined with its user. */
export async function findSession(
  db: Kysely<Database>,
  idHash: Buffer,
): Promise<SessionRow | undefined> {
  return db
    .selectFrom("sessions as s")
    .innerJoin("users as u", "u.id", "s.user_id")
    .select([
      "s.id_hash",
      "s.user_id",
      "s.tokens_encrypted",
      "s.access_expires_at",
      "s.refreshing_until",
      "s.csrf_token",
      "s.created_at",
      "s.last_seen_at",
      "s.expires_at",
      "u.email",
      "u.name",
      "u.is_admin",
      "u.disabled_at",
    ])
    .where("s.id_hash", "=", idHash)
    .executeTakeFirst();
}

/**
 * Marks the session used now, if it was last marked more than `everySeconds` ago, so that reads
 * do not each write a row (an update that matches none writes nothing).
 */
export async function touchSession(
  db: Kysely<Database>,
  idHash: Buffer,
  everySeconds: number,
): Promise<void> {
  await db
    .updateTable("sessions")
    .set({ last_seen_at: sql<Date>`now()` })
    .where("id_hash", "=", idHash)
    .where("last_seen_at", "<", sql<Date>`now() - make_interval(secs => ${everySeconds})`)
    .execute();
}

/**
 * Claims the right to refresh this session's tokens for `seconds`; false when another request
 * holds it. Only the winner calls the provider, so a rotating refresh token is used once.
 */
export async function claimRefresh(
  db: Kysely<Database>,
  idHash: Buffer,
  seconds: number,
): Promise<boolean> {
  const result = await db
    .updateTable("sessions")
    .set({ refreshing_until: sql<Date>`now() + make_interval(secs => ${seconds})` })
    .where("id_hash", "=", idHash)
    .where((eb) =>
      eb.or([eb("refreshing_until", "is", null), eb("refreshing_until", "<", sql<Date>`now()`)]),
    )
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Stores refreshed tokens and releases the refresh claim. */
export async function saveRefreshedTokens(
  db: Kysely<Database>,
  idHash: Buffer,
  tokensEncrypted: Buffer,
  accessExpiresAt: Date | null,
): Promise<void> {
  await db
    .updateTable("sessions")
    .set({
      tokens_encrypted: tokensEncrypted,
      access_expires_at: accessExpiresAt,
      refreshing_until: null,
    })
    .where("id_hash", "=", idHash)
    .execute();
}

/** Lets the next request try the refresh again (the provider was unreachable). */
export async function releaseRefresh(db: Kysely<Database>, idHash: Buffer): Promise<void> {
  await db
    .updateTable("sessions")
    .set({ refreshing_until: null })
    .where("id_hash", "=", idHash)
    .execute();
}

/** Deletes the session and returns its encrypted tokens (for the provider's logout). */
export async function deleteSession(
  db: Kysely<Database>,
  idHash: Buffer,
): Promise<{ tokens_encrypted: Buffer } | undefined> {
  return db
    .deleteFrom("sessions")
    .where("id_hash", "=", idHash)
    .returning("tokens_encrypted")
    .executeTakeFirst();
}

/** Removes sessions past their absolute or idle end; run when a session is created. */
export async function deleteExpiredSessions(
  db: Kysely<Database>,
  idleSeconds: number,
): Promise<void> {
  await db
    .deleteFrom("sessions")
    .where((eb) =>
      eb.or([
        eb("expires_at", "<", sql<Date>`now()`),
        eb("last_seen_at", "<", sql<Date>`now() - make_interval(secs => ${idleSeconds})`),
      ]),
    )
    .execute();
}
