import { sql, type Kysely } from "kysely";
import type { Database } from "../../db/schema.js";

// Times come from PostgreSQL's clock, so that servers with different clocks count alike.
const since = (seconds: number) => sql<Date>`now() - make_interval(secs => ${seconds})`;

export async function insertAttempt(
  db: Kysely<Database>,
  email: string,
  ip: string,
): Promise<string> {
  const row = await db
    .insertInto("sign_in_attempts")
    .values({ email, ip })
    .returning("id")
    .executeTakeFirstOrThrow();
  return String(row.id);
}

export interface RecentAttempts {
  /** For this email from any address. */
  email: number;
  /** From this address for any email. */
  ip: number;
  /** For this email from this address. */
  pair: number;
  /** Seconds since the latest earlier attempt for this email (not `exceptId`), if any. */
  sinceLastEmail: number | null;
}

/** Attempts in the last `windowSeconds` for this email, this address and both. */
export async function countRecent(
  db: Kysely<Database>,
  email: string,
  ip: string,
  windowSeconds: number,
  exceptId: string,
): Promise<RecentAttempts> {
  const row = await db
    .selectFrom("sign_in_attempts")
    .select([
      sql<string>`count(*) FILTER (WHERE email = ${email})`.as("email"),
      sql<string>`count(*) FILTER (WHERE ip = ${ip})`.as("ip"),
      sql<string>`count(*) FILTER (WHERE email = ${email} AND ip = ${ip})`.as("pair"),
      sql<
        number | null
      >`extract(epoch FROM now() - max(created_at) FILTER (WHERE email = ${email} AND id <> ${exceptId}))::float8`.as(
        "since_last",
      ),
    ])
    .where("created_at", ">", since(windowSeconds))
    .where((eb) => eb.or([eb("email", "=", email), eb("ip", "=", ip)]))
    .executeTakeFirstOrThrow();
  return {
    email: Number(row.email),
    ip: Number(row.ip),
    pair: Number(row.pair),
    sinceLastEmail: row.since_last === null ? null : Number(row.since_last),
  };
}

export async function deleteAttempt(db: Kysely<Database>, id: string): Promise<void> {
  await db.deleteFrom("sign_in_attempts").where("id", "=", id).execute();
}

/** Forgets the failures of one email (a successful sign-in, a password reset). */
export async function deleteForEmail(db: Kysely<Database>, email: string): Promise<void> {
  await db.deleteFrom("sign_in_attempts").where("email", "=", email).execute();
}

export async function deleteOlderThan(db: Kysely<Database>, seconds: number): Promise<number> {
  const result = await db
    .deleteFrom("sign_in_attempts")
    .where("created_at", "<", since(seconds))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
