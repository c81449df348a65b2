import type { Db } from "../../db/pool.js";

/** The ticket details cache (jira_tickets) and the requirements syncs (tracker_syncs), 0041. */

export interface CachedTicket {
  key: string;
  found: boolean;
  summary: string;
  status: string;
}

/** The cached tickets among `keys` fetched after `freshAfter`. */
export async function freshTickets(
  db: Db,
  keys: readonly string[],
  freshAfter: Date,
): Promise<CachedTicket[]> {
  if (keys.length === 0) return [];
  return db.kysely
    .selectFrom("jira_tickets")
    .select(["key", "found", "summary", "status"])
    .where("key", "in", keys)
    .where("fetched_at", ">", freshAfter)
    .execute();
}

export async function storeTickets(db: Db, tickets: readonly CachedTicket[], at: Date) {
  if (tickets.length === 0) return;
  await db.kysely
    .insertInto("jira_tickets")
    .values(tickets.map((ticket) => ({ ...ticket, fetched_at: at })))
    .onConflict((oc) =>
      oc.column("key").doUpdateSet((eb) => ({
        found: eb.ref("excluded.found"),
        summary: eb.ref("excluded.summary"),
        status: eb.ref("excluded.status"),
        fetched_at: eb.ref("excluded.fetched_at"),
      })),
    )
    .execute();
}

/** Removes the cached tickets fetched at or before `staleAt`: they would be looked up again. */
export async function pruneTickets(db: Db, staleAt: Date): Promise<number> {
  const result = await db.kysely
    .deleteFrom("jira_tickets")
    .where("fetched_at", "<=", staleAt)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

export type SyncRow = Awaited<ReturnType<typeof latestSync>>;

export async function latestSync(db: Db, tracker: "jira" | "spira") {
  return db.kysely
    .selectFrom("tracker_syncs")
    .selectAll()
    .where("tracker", "=", tracker)
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
}

export async function lastSuccess(db: Db, tracker: "jira" | "spira") {
  const row = await db.kysely
    .selectFrom("tracker_syncs")
    .select("finished_at")
    .where("tracker", "=", tracker)
    .where("state", "=", "succeeded")
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
  return row?.finished_at ?? null;
}

/** A new queued sync, unless one is queued or running already (its id is answered then). */
export async function queueSync(db: Db, tracker: "jira" | "spira", requestedBy: string) {
  return db.kysely.transaction().execute(async (trx) => {
    // One sync at a time per tracker: concurrent requests serialize on this lock.
    await trx
      .selectNoFrom((eb) => eb.fn("pg_advisory_xact_lock", [eb.val(41_001)]).as("l"))
      .execute();
    // A sync whose server stopped half-way would block every later one: after 30 minutes (the
    // job's expiry) it is failed.
    await trx
      .updateTable("tracker_syncs")
      .set({
        state: "failed",
        error: "The sync did not finish (the server stopped?).",
        finished_at: new Date(),
      })
      .where("tracker", "=", tracker)
      .where("state", "in", ["queued", "running"])
      .where("queued_at", "<", new Date(Date.now() - 30 * 60_000))
      .execute();
    const active = await trx
      .selectFrom("tracker_syncs")
      .select("id")
      .where("tracker", "=", tracker)
      .where("state", "in", ["queued", "running"])
      .executeTakeFirst();
    if (active) return { id: Number(active.id), created: false };
    const row = await trx
      .insertInto("tracker_syncs")
      .values({ tracker, state: "queued", requested_by: requestedBy })
      .returning("id")
      .executeTakeFirstOrThrow();
    return { id: Number(row.id), created: true };
  });
}

export async function updateSync(
  db: Db,
  id: number,
  change: {
    state?: "running" | "succeeded" | "failed";
    progress?: string | null;
    error?: string | null;
    started_at?: Date;
    finished_at?: Date;
  },
) {
  await db.kysely.updateTable("tracker_syncs").set(change).where("id", "=", id).execute();
}
