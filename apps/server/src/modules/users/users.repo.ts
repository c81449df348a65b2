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
}

const COLUMNS = [
  "id",
  "email",
  "name",
  "picture",
  "is_admin",
  "disabled_at",
  "created_at",
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
