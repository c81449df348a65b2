import type { Kysely } from "kysely";
import type { BuildEventsTable, Database } from "../../db/schema.js";

/** A build's history: what happened to it, by which server, oldest first. */
export type BuildEventKind = BuildEventsTable["kind"];

export interface BuildEventRow {
  at: Date;
  kind: BuildEventKind;
  server_id: string | null;
  message: string;
}

export async function addEvent(
  db: Kysely<Database>,
  buildId: number,
  kind: BuildEventKind,
  message: string,
  serverId: string | null = null,
): Promise<void> {
  await db
    .insertInto("build_events")
    .values({ build_id: buildId, kind, message, server_id: serverId })
    .execute();
}

/** The events of these builds, each build's oldest first. */
export async function eventsOf(
  db: Kysely<Database>,
  buildIds: readonly number[],
): Promise<Map<number, BuildEventRow[]>> {
  const byBuild = new Map<number, BuildEventRow[]>();
  if (buildIds.length === 0) return byBuild;
  const rows = await db
    .selectFrom("build_events")
    .select(["build_id", "at", "kind", "server_id", "message"])
    .where("build_id", "in", [...buildIds])
    .orderBy("build_id")
    .orderBy("id")
    .execute();
  for (const row of rows) {
    const id = Number(row.build_id);
    byBuild.set(id, [...(byBuild.get(id) ?? []), row]);
  }
  return byBuild;
}
