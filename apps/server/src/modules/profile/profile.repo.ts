import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";

/** The profile columns of a user; the stored secret's bytes never leave this module's service. */
export interface ProfileRow {
  id: number;
  email: string;
  name: string;
  picture: string | null;
  is_admin: boolean;
  spira_user: string | null;
  spira_secret_encrypted: Buffer | null;
}

const COLUMNS = [
  "id",
  "email",
  "name",
  "picture",
  "is_admin",
  "spira_user",
  "spira_secret_encrypted",
] as const;

/** The profile columns of a user. */
export async function findProfile(
  db: Kysely<Database>,
  id: number,
): Promise<ProfileRow | undefined> {
  return db.selectFrom("users").select(COLUMNS).where("id", "=", id).executeTakeFirst();
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
    .returning(COLUMNS)
    .executeTakeFirst();
}
