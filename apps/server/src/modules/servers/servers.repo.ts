import { sql, type Kysely } from "kysely";
import type { Database } from "../../db/schema.js";

/**
 * Server processes and their leases. Every time here is the database's (now()), never a
 * server's own clock: two servers whose clocks disagree still agree on whose lease ran out.
 */

export interface ServerRow {
  id: string;
  host: string;
  pid: number;
  data_dir: string;
  started_at: Date;
  heartbeat_at: Date;
  lease_until: Date;
  ended_at: Date | null;
}

/** Registers a server process with a lease of leaseMs from now (the database's now). */
export async function register(
  db: Kysely<Database>,
  server: { id: string; host: string; pid: number; dataDir: string },
  leaseMs: number,
): Promise<void> {
  await db
    .insertInto("servers")
    .values({
      id: server.id,
      host: server.host,
      pid: server.pid,
      data_dir: server.dataDir,
      lease_until: sql<Date>`now() + ${leaseMs} * interval '1 millisecond'`,
    })
    .execute();
}

/**
 * Renews the lease, only while it has not run out: a server that comes back after its lease
 * expired (a long pause) is told so (false) instead of reviving a lease others acted on.
 */
export async function renew(db: Kysely<Database>, id: string, leaseMs: number): Promise<boolean> {
  const row = await db
    .updateTable("servers")
    .set({
      heartbeat_at: sql<Date>`now()`,
      lease_until: sql<Date>`now() + ${leaseMs} * interval '1 millisecond'`,
    })
    .where("id", "=", id)
    .where("ended_at", "is", null)
    .where("lease_until", ">", sql<Date>`now()`)
    .returning("id")
    .executeTakeFirst();
  return row !== undefined;
}

/** Ends a lease at once (a clean stop, or a restart that found its predecessor dead). */
export async function endLease(db: Kysely<Database>, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable("servers")
    .set({ ended_at: sql<Date>`now()`, lease_until: sql<Date>`least(lease_until, now())` })
    .where("id", "in", [...ids])
    .execute();
}

/** Servers of this host and data folder whose lease has not ended: a restart's predecessors. */
export async function sameHostServers(
  db: Kysely<Database>,
  host: string,
  dataDir: string,
  except: string,
): Promise<Pick<ServerRow, "id" | "pid">[]> {
  return db
    .selectFrom("servers")
    .select(["id", "pid"])
    .where("host", "=", host)
    .where("data_dir", "=", dataDir)
    .where("id", "<>", except)
    .where("ended_at", "is", null)
    .execute();
}

/** The servers whose lease still runs, by the database's clock. */
export async function liveServerIds(db: Kysely<Database>): Promise<string[]> {
  const rows = await db
    .selectFrom("servers")
    .select("id")
    .where("lease_until", ">", sql<Date>`now()`)
    .where("ended_at", "is", null)
    .execute();
  return rows.map((row) => row.id);
}

export async function findServer(db: Kysely<Database>, id: string): Promise<ServerRow | undefined> {
  return db.selectFrom("servers").selectAll().where("id", "=", id).executeTakeFirst();
}

/** Forgets servers that ended long ago (their jobs were taken over or finished since). */
export async function forgetEnded(db: Kysely<Database>, olderThanMs: number): Promise<void> {
  await db
    .deleteFrom("servers")
    .where("lease_until", "<", sql<Date>`now() - ${olderThanMs} * interval '1 millisecond'`)
    .execute();
}
