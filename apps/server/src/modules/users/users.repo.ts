import { sql, type Kysely } from "kysely";
import type { Database } from "../../db/schema.js";

/** A user as the rest of Assay sees it: no password hash, no test-management secret. */
export interface UserRow {
  id: number;
  email: string;
  name: string;
  picture: string | null;
  is_admin: boolean;
  disabled_at: Date | null;
  created_at: Date;
  /** The external issuer and its subject for this user, when they signed in through one. */
  issuer: string | null;
  subject: string | null;
}

// The users table is this module's alone (auth and profile read it through here): one column
// list, and the profile's with the stored secret's bytes, which only the profile service opens.
const COLUMNS = [
  "id",
  "email",
  "name",
  "picture",
  "is_admin",
  "disabled_at",
  "created_at",
  "issuer",
  "subject",
] as const;

export async function insertUser(
  db: Kysely<Database>,
  user: { email: string; name: string; passwordHash: string; admin: boolean },
): Promise<UserRow> {
  return db
    .insertInto("users")
    .values({
      email: user.email,
      name: user.name,
      password_hash: user.passwordHash,
      is_admin: user.admin,
    })
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
}

export async function findById(db: Kysely<Database>, id: number): Promise<UserRow | undefined> {
  return db.selectFrom("users").select(COLUMNS).where("id", "=", id).executeTakeFirst();
}

export async function findByEmail(
  db: Kysely<Database>,
  email: string,
): Promise<UserRow | undefined> {
  return db.selectFrom("users").select(COLUMNS).where("email", "=", email).executeTakeFirst();
}

/** The user with this email and their password hash, for sign-in only. */
export async function findCredentials(
  db: Kysely<Database>,
  email: string,
): Promise<(UserRow & { password_hash: string | null }) | undefined> {
  return db
    .selectFrom("users")
    .select([...COLUMNS, "password_hash"])
    .where("email", "=", email)
    .executeTakeFirst();
}

/** Names of the users with these (normalized) emails. */
export async function namesByEmail(
  db: Kysely<Database>,
  emails: readonly string[],
): Promise<{ email: string; name: string }[]> {
  if (emails.length === 0) return [];
  return db.selectFrom("users").select(["email", "name"]).where("email", "in", emails).execute();
}

export async function listUsers(db: Kysely<Database>): Promise<UserRow[]> {
  return db.selectFrom("users").select(COLUMNS).orderBy("email").execute();
}

export async function setDisabled(
  db: Kysely<Database>,
  email: string,
  at: Date | null,
): Promise<UserRow | undefined> {
  return db
    .updateTable("users")
    .set({ disabled_at: at })
    .where("email", "=", email)
    .returning(COLUMNS)
    .executeTakeFirst();
}

export async function setPasswordHash(
  db: Kysely<Database>,
  email: string,
  passwordHash: string,
): Promise<UserRow | undefined> {
  return db
    .updateTable("users")
    .set({ password_hash: passwordHash })
    .where("email", "=", email)
    .returning(COLUMNS)
    .executeTakeFirst();
}

/**
 * Runs `fn` in a transaction that holds a lock only one server gets at a time, so that two
 * servers starting on an empty database make one first admin, not two.
 */
export async function withFirstUserLock<T>(
  db: Kysely<Database>,
  fn: (trx: Kysely<Database>) => Promise<T>,
): Promise<T> {
  return db.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(hashtext('assay.first-admin'))`.execute(trx);
    return fn(trx);
  });
}

export async function countUsers(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom("users")
    .select((eb) => eb.fn.countAll<string>().as("count"))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** The user an external issuer knows by `subject`. */
export async function findBySubject(
  db: Kysely<Database>,
  issuer: string,
  subject: string,
): Promise<UserRow | undefined> {
  return db
    .selectFrom("users")
    .select(COLUMNS)
    .where("issuer", "=", issuer)
    .where("subject", "=", subject)
    .executeTakeFirst();
}

/** A user first seen at an external issuer; undefined when the email is taken meanwhile. */
export async function insertExternalUser(
  db: Kysely<Database>,
  row: { email: string; name: string; issuer: string; subject: string },
): Promise<UserRow | undefined> {
  return db
    .insertInto("users")
    .values(row)
    .onConflict((oc) => oc.doNothing())
    .returning(COLUMNS)
    .executeTakeFirst();
}

/** Links an existing, not yet linked user to an external issuer's subject. */
export async function linkToIssuer(
  db: Kysely<Database>,
  id: number,
  issuer: string,
  subject: string,
): Promise<UserRow | undefined> {
  return db
    .updateTable("users")
    .set({ issuer, subject })
    .where("id", "=", id)
    .where("issuer", "is", null)
    .returning(COLUMNS)
    .executeTakeFirst();
}

/** A user with their profile's test-management fields; the secret's bytes stay sealed. */
export interface ProfileRow extends UserRow {
  spira_user: string | null;
  spira_secret_encrypted: Buffer | null;
}

const PROFILE_COLUMNS = [...COLUMNS, "spira_user", "spira_secret_encrypted"] as const;

export async function findProfile(
  db: Kysely<Database>,
  id: number,
): Promise<ProfileRow | undefined> {
  return db.selectFrom("users").select(PROFILE_COLUMNS).where("id", "=", id).executeTakeFirst();
}

export interface ProfileChanges {
  name?: string;
  picture?: string | null;
  spira_user?: string | null;
  spira_secret_encrypted?: Buffer | null;
}

/** Applies the given changes and returns the row as it is now. */
export async function updateProfile(
  db: Kysely<Database>,
  id: number,
  changes: ProfileChanges,
): Promise<ProfileRow | undefined> {
  if (Object.keys(changes).length === 0) return findProfile(db, id);
  return db
    .updateTable("users")
    .set(changes)
    .where("id", "=", id)
    .returning(PROFILE_COLUMNS)
    .executeTakeFirst();
}
