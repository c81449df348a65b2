import { sql } from "kysely";
import type { DhRow } from "@assay/core";
import type { Db } from "../../db/pool.js";

/**
 * Data harmonization runs and their rows: the dh_runs and dh_run_rows tables (migration 0050; a
 * row's Find missing rows result, 0051).
 */

export interface RunKey {
  platform: string;
  type: string;
  env: string;
  /** Global runs' schema; '' for the other platforms. */
  schema: string;
}

export interface RunRecord extends RunKey {
  id: number;
  envType: string;
  kind: string;
  state: string;
  error: string | null;
  demo: boolean;
  startedBy: string | null;
  createdAt: Date;
  finishedAt: Date | null;
}

/** A run queued or running: one per environment at a time. */
const ACTIVE = ["queued", "running"];

const runColumns = [
  "id",
  "platform",
  "type",
  "env",
  "schema",
  "env_type",
  "kind",
  "state",
  "error",
  "demo",
  "started_by",
  "created_at",
  "finished_at",
] as const;

type RunRow = {
  id: number;
  platform: string;
  type: string;
  env: string;
  schema: string;
  env_type: string;
  kind: string;
  state: string;
  error: string | null;
  demo: boolean;
  started_by: string | null;
  created_at: Date;
  finished_at: Date | null;
};

const toRun = (row: RunRow): RunRecord => ({
  id: Number(row.id),
  platform: row.platform,
  type: row.type,
  env: row.env,
  schema: row.schema,
  envType: row.env_type,
  kind: row.kind,
  state: row.state,
  error: row.error,
  demo: row.demo,
  startedBy: row.started_by,
  createdAt: row.created_at,
  finishedAt: row.finished_at,
});

/** The runs of one environment (its platform, type, env and schema), to narrow or order. */
const runsOf = (db: Db, key: RunKey) =>
  db.kysely
    .selectFrom("dh_runs")
    .select(runColumns)
    .where("platform", "=", key.platform)
    .where("type", "=", key.type)
    .where("env", "=", key.env)
    .where("schema", "=", key.schema);

/**
 * A queued run for the key, or the run already queued or running for it (created false): the
 * partial unique index keeps one active run per environment, also across servers.
 */
export async function createOrJoinRun(
  db: Db,
  values: RunKey & { envType: string; kind: string; demo: boolean; startedBy: string },
): Promise<{ run: RunRecord; created: boolean }> {
  const inserted = await db.kysely
    .insertInto("dh_runs")
    .values({
      platform: values.platform,
      type: values.type,
      env: values.env,
      schema: values.schema,
      env_type: values.envType,
      kind: values.kind,
      demo: values.demo,
      started_by: values.startedBy,
    })
    .onConflict((oc) =>
      oc
        .columns(["platform", "type", "env", "schema"])
        .where("state", "in", ["queued", "running"])
        .doNothing(),
    )
    .returning(runColumns)
    .executeTakeFirst();
  if (inserted) return { run: toRun(inserted), created: true };
  const active = await runsOf(db, values)
    .where("state", "in", ["queued", "running"])
    .executeTakeFirst();
  // The active run finished between the insert and this read: try once more.
  if (!active) return createOrJoinRun(db, values);
  return { run: toRun(active), created: false };
}

export async function findRun(db: Db, id: number): Promise<RunRecord | undefined> {
  const row = await db.kysely
    .selectFrom("dh_runs")
    .select(runColumns)
    .where("id", "=", id)
    .executeTakeFirst();
  return row ? toRun(row) : undefined;
}

/** Runs of an environment, newest first. */
export async function listRuns(db: Db, key: RunKey, limit: number): Promise<RunRecord[]> {
  const rows = await runsOf(db, key).orderBy("id", "desc").limit(limit).execute();
  return rows.map(toRun);
}

/** The finished run of the same environment just before `run`, if any. */
export async function previousFinishedRun(db: Db, run: RunRecord): Promise<RunRecord | undefined> {
  const row = await runsOf(db, run)
    .where("state", "in", ["done", "failed"])
    .where("id", "<", run.id)
    .orderBy("id", "desc")
    .executeTakeFirst();
  return row ? toRun(row) : undefined;
}

export async function listRows(db: Db, runId: number): Promise<DhRow[]> {
  const rows = await db.kysely
    .selectFrom("dh_run_rows")
    .select(["data"])
    .where("run_id", "=", runId)
    .orderBy("id")
    .execute();
  return rows.map((row) => row.data as unknown as DhRow);
}

/** Replaces the run's rows (a retried job starts over) and marks it running. */
export async function startRows(db: Db, runId: number, rows: readonly DhRow[]): Promise<void> {
  await db.kysely.transaction().execute(async (trx) => {
    await trx.deleteFrom("dh_run_rows").where("run_id", "=", runId).execute();
    if (rows.length > 0)
      await trx
        .insertInto("dh_run_rows")
        .values(
          rows.map((row) => ({
            run_id: runId,
            id: row.id,
            status: row.status,
            data: JSON.stringify(row),
          })),
        )
        .execute();
    await trx
      .updateTable("dh_runs")
      .set({ state: "running", error: null })
      .where("id", "=", runId)
      .where("state", "in", ACTIVE)
      .execute();
  });
}

export async function saveRow(db: Db, runId: number, row: DhRow): Promise<void> {
  await db.kysely
    .updateTable("dh_run_rows")
    .set({ status: row.status, data: JSON.stringify(row) })
    .where("run_id", "=", runId)
    .where("id", "=", row.id)
    .execute();
}

/** Ends an active run; one already ended (interrupted by another server) stays as it is. */
export async function finishRun(db: Db, runId: number, error: string | null): Promise<void> {
  await db.kysely
    .updateTable("dh_runs")
    .set({ state: error ? "failed" : "done", error, finished_at: sql`now()` })
    .where("id", "=", runId)
    .where("state", "in", ACTIVE)
    .execute();
}

/** Records the server process running an active run; false when the run is no longer active. */
export async function ownRun(db: Db, runId: number, server: string): Promise<boolean> {
  const row = await db.kysely
    .updateTable("dh_runs")
    .set({ owner_server: server })
    .where("id", "=", runId)
    .where("state", "in", ACTIVE)
    .returning("id")
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Ends as interrupted the active runs whose server is not among `live` (its lease ran out), so
 * the next Run Report of their environment starts a fresh run. Their ids.
 */
export async function interruptOrphanRuns(
  db: Db,
  live: readonly string[],
  message: string,
): Promise<number[]> {
  const rows = await db.kysely
    .updateTable("dh_runs")
    .set({ state: "failed", error: message, finished_at: sql`now()` })
    .where("state", "in", ACTIVE)
    .where("owner_server", "is not", null)
    .where("owner_server", "not in", live.length > 0 ? [...live] : [""])
    .returning("id")
    .execute();
  return rows.map((row) => Number(row.id));
}

/**
 * A row's stored Find missing rows result and when it was computed: null when never computed,
 * undefined when the run has no such row.
 */
export async function findMissingRowsResult(
  db: Db,
  runId: number,
  rowId: number,
): Promise<{ result: Record<string, unknown>; computedAt: Date } | null | undefined> {
  const row = await db.kysely
    .selectFrom("dh_run_rows")
    .select(["missing_rows", "missing_rows_at"])
    .where("run_id", "=", runId)
    .where("id", "=", rowId)
    .executeTakeFirst();
  if (!row) return undefined;
  if (!row.missing_rows || !row.missing_rows_at) return null;
  return { result: row.missing_rows, computedAt: row.missing_rows_at };
}

/** Keeps a Find missing rows result with its row; answers when it was stored. */
export async function saveMissingRowsResult(
  db: Db,
  runId: number,
  rowId: number,
  result: Record<string, unknown>,
): Promise<Date> {
  const row = await db.kysely
    .updateTable("dh_run_rows")
    .set({ missing_rows: JSON.stringify(result), missing_rows_at: sql`now()` })
    .where("run_id", "=", runId)
    .where("id", "=", rowId)
    .returning("missing_rows_at")
    .executeTakeFirst();
  // The row was replaced meanwhile (its run was retried): nothing to keep it with.
  return row?.missing_rows_at ?? new Date();
}
