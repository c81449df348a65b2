import { sql, type Kysely } from "kysely";
import pg from "pg";
import type { Database } from "../../db/schema.js";

/**
 * Stop requests of builds. A local build runs on the server whose job started it, but Stop may
 * reach any server behind the load balancer: that server records the request on the build and
 * NOTIFYs this channel; the server running the build LISTENs and ends it. The request stays on
 * the row, so a notification missed (the listener was reconnecting) is found by a sweep, and a
 * server restarted while the build ran ends it instead of starting it again.
 */
export const STOP_CHANNEL = "assay_build_stop";

/**
 * Records the stop request of an active build and notifies every server, in one statement (the
 * notification is delivered when it commits). False when the build has already ended.
 */
export async function requestStop(
  db: Kysely<Database>,
  id: number,
  by: string,
  message: string,
): Promise<boolean> {
  const result = await sql<{ id: string }>`
    WITH requested AS (
      UPDATE builds
         SET stop_requested_at = now(), stop_requested_by = ${by}, status_message = ${message}
       WHERE id = ${id} AND build_status = 'IN_PROGRESS'
      RETURNING id
    )
    SELECT id, pg_notify(${STOP_CHANNEL}, id::text) FROM requested`.execute(db);
  return result.rows.length > 0;
}

/** Which of these builds have a stop request and are still active. */
export async function stopRequestedAmong(
  db: Kysely<Database>,
  ids: readonly number[],
): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom("builds")
    .select("id")
    .where("id", "in", [...ids])
    .where("stop_requested_at", "is not", null)
    .where("build_status", "=", "IN_PROGRESS")
    .execute();
  return rows.map((row) => Number(row.id));
}

export interface StopListener {
  close(): Promise<void>;
}

/**
 * LISTENs for stop requests on a connection of its own (a pooled one would be handed to other
 * queries). A lost connection is opened again after a second; `onConnected` runs after each
 * (re)connection, so the caller can sweep for requests made while nobody listened.
 */
export function listenForStops(
  connection: pg.ClientConfig,
  handlers: {
    onStop: (buildId: number) => void;
    onConnected: () => void;
    onError: (error: unknown) => void;
  },
): StopListener {
  let closed = false;
  let current: pg.Client | undefined;
  let timer: NodeJS.Timeout | undefined;

  const retry = (client: pg.Client) => {
    if (closed || client !== current) return;
    current = undefined;
    client.end().catch(() => undefined);
    timer = setTimeout(connect, 1_000);
    timer.unref();
  };

  function connect(): void {
    if (closed) return;
    const client = new pg.Client({ ...connection, application_name: "assay-build-stops" });
    current = client;
    client.on("notification", (message) => {
      const id = Number(message.payload);
      if (Number.isSafeInteger(id)) handlers.onStop(id);
    });
    client.on("error", (error) => {
      handlers.onError(error);
      retry(client);
    });
    client.on("end", () => retry(client));
    client
      .connect()
      .then(() => client.query(`LISTEN ${STOP_CHANNEL}`))
      .then(() => {
        if (client === current) handlers.onConnected();
      })
      .catch((error: unknown) => {
        handlers.onError(error);
        retry(client);
      });
  }

  connect();
  return {
    async close() {
      closed = true;
      clearTimeout(timer);
      const client = current;
      current = undefined;
      await client?.end().catch(() => undefined);
    },
  };
}
