import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";

/** The columns of a user that sign-in needs. */
export interface AccountRow {
  id: number;
  email: string;
  name: string;
  is_admin: boolean;
  disabled_at: Date | null;
  issuer: string | null;
  subject: string | null;
}

const COLUMNS = ["id", "email", "name", "is_admin", "disabled_at", "issuer", "subject"] as const;

/** The user with this id (the embedded provider's sub). */
export async function findAccountById(
  db: Kysely<Database>,
  id: number,
): Promise<AccountRow | undefined> {
  return db.selectFrom("users").select(COLUMNS).where("id", "=", id).executeTakeFirst();
}

/** The user an external issuer knows by `subject`. */
export async function findAccountBySubject(
  db: Kysely<Database>,
  issuer: string,
  subject: string,
): Promise<AccountRow | undefined> {
  return db
    .selectFrom("users")
    .select(COLUMNS)
    .where("issuer", "=", issuer)
    .where("subject", "=", subject)
    .executeTakeFirst();
}

/** The user with this (lower-case) email. */
export async function findAccountByEmail(
  db: Kysely<Database>,
  email: string,
): Promise<AccountRow | undefined> {
  return db.selectFrom("users").select(COLUMNS).where("email", "=", email).executeTakeFirst();
}

/** A user first seen at an external issuer; undefined when the email is taken meanwhile. */
export async function insertExternalAccount(
  db: Kysely<Database>,
  row: { email: string; name: string; issuer: string; subject: string },
): Promise<AccountRow | undefined> {
  return db
    .insertInto("users")
    .values(row)
    .onConflict((oc) => oc.doNothing())
    .returning(COLUMNS)
    .executeTakeFirst();
}

/** Links an existing, not yet linked user to an external issuer's subject. */
export async function linkAccount(
  db: Kysely<Database>,
  id: number,
  issuer: string,
  subject: string,
): Promise<AccountRow | undefined> {
  return db
    .updateTable("users")
    .set({ issuer, subject })
    .where("id", "=", id)
    .where("issuer", "is", null)
    .returning(COLUMNS)
    .executeTakeFirst();
}
