import { sql, type Insertable, type Kysely, type Selectable, type Updateable } from "kysely";
import type { BuildsTable, Database } from "../../db/schema.js";

export type BuildRow = Selectable<BuildsTable>;
export type NewBuild = Insertable<BuildsTable>;

/** One build list: a family in a region (the China list is frontend in CHINA). */
export interface ListFilter {
  family: BuildsTable["family"];
  region: BuildsTable["region"];
  testRunKey?: string;
}

/** bigint columns come back from pg as strings. */
function normalize(row: BuildRow): BuildRow {
  return {
    ...row,
    id: Number(row.id),
    log_bytes: Number(row.log_bytes),
    started_by_id: row.started_by_id === null ? null : Number(row.started_by_id),
  };
}

export async function insertBuild(db: Kysely<Database>, build: NewBuild): Promise<BuildRow> {
  return normalize(
    await db.insertInto("builds").values(build).returningAll().executeTakeFirstOrThrow(),
  );
}

export async function findBuild(db: Kysely<Database>, id: number): Promise<BuildRow | undefined> {
  const row = await db.selectFrom("builds").selectAll().where("id", "=", id).executeTakeFirst();
  return row && normalize(row);
}

export async function listBuilds(
  db: Kysely<Database>,
  filter: ListFilter,
  page: number,
  pageSize: number,
): Promise<{ rows: BuildRow[]; total: number; active: number }> {
  let query = db
    .selectFrom("builds")
    .where("family", "=", filter.family)
    .where("region", "=", filter.region);
  if (filter.testRunKey !== undefined) query = query.where("test_run_key", "=", filter.testRunKey);
  const [rows, counts] = await Promise.all([
    query
      .selectAll()
      .orderBy("id", "desc")
      .limit(pageSize)
      .offset((page - 1) * pageSize)
      .execute(),
    query
      .select([
        sql<string>`count(*)`.as("total"),
        sql<string>`count(*) FILTER (WHERE build_status = 'IN_PROGRESS')`.as("active"),
      ])
      .executeTakeFirstOrThrow(),
  ]);
  return { rows: rows.map(normalize), total: Number(counts.total), active: Number(counts.active) };
}

/** Changes a build still IN_PROGRESS; a build that already ended is left as it is (undefined). */
export async function updateActiveBuild(
  db: Kysely<Database>,
  id: number,
  changes: Updateable<BuildsTable>,
): Promise<BuildRow | undefined> {
  const row = await db
    .updateTable("builds")
    .set(changes)
    .where("id", "=", id)
    .where("build_status", "=", "IN_PROGRESS")
    .returningAll()
    .executeTakeFirst();
  return row && normalize(row);
}

export async function setLog(
  db: Kysely<Database>,
  id: number,
  key: string,
  bytes: number,
): Promise<void> {
  await db
    .updateTable("builds")
    .set({ log_key: key, log_bytes: bytes })
    .where("id", "=", id)
    .execute();
}

/** Active builds of the given executor kinds, oldest first. */
export async function activeBuilds(
  db: Kysely<Database>,
  kinds: readonly BuildsTable["executor_kind"][],
): Promise<BuildRow[]> {
  const rows = await db
    .selectFrom("builds")
    .selectAll()
    .where("build_status", "=", "IN_PROGRESS")
    .where("executor_kind", "in", kinds)
    .orderBy("id")
    .execute();
  return rows.map(normalize);
}

/** The build whose ASSAY_TOKEN has this hash, while it is active. */
export async function findActiveByTokenHash(
  db: Kysely<Database>,
  hash: string,
): Promise<Pick<BuildRow, "id" | "test_run_key"> | undefined> {
  const row = await db
    .selectFrom("builds")
    .select(["id", "test_run_key"])
    .where("token_hash", "=", hash)
    .where("build_status", "=", "IN_PROGRESS")
    .executeTakeFirst();
  return row && { id: Number(row.id), test_run_key: row.test_run_key };
}

/** Start times of a user's builds since `since`, oldest first (the rate limit's window). */
export async function recentStarts(
  db: Kysely<Database>,
  userId: number,
  since: Date,
): Promise<Date[]> {
  const rows = await db
    .selectFrom("builds")
    .select("start_time")
    .where("started_by_id", "=", userId)
    .where("start_time", ">", since)
    .orderBy("start_time")
    .execute();
  return rows.map((row) => row.start_time);
}

/** Builds already made for a run: the next build's results are attempt `count`. */
export async function countRunBuilds(db: Kysely<Database>, testRunKey: string): Promise<number> {
  const row = await db
    .selectFrom("builds")
    .select(sql<string>`count(*)`.as("n"))
    .where("test_run_key", "=", testRunKey)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * The runs an executor reran in place since `since`: the keys of its rerun builds, as a query to
 * nest (`test_run_key IN (...)`), so that a reader of runs (the Dashboard's rerun table) keeps
 * one statement and one plan while the builds table's SQL stays here.
 */
export function rerunRunKeys(db: Kysely<Database>, executor: string, since: Date) {
  return db
    .selectFrom("builds")
    .select("builds.test_run_key")
    .where("builds.executor", "=", executor)
    .where("builds.rerun_of", "is not", null)
    .where("builds.start_time", ">=", since);
}

/** A run's family, or undefined when there is no such run. */
export async function findRun(
  db: Kysely<Database>,
  key: string,
): Promise<
  | {
      id: number;
      family: string;
      test_run_name: string;
      is_china_region: boolean;
      is_next_gen: boolean;
      nora_site: string | null;
      env: string | null;
      baseurl: string | null;
      branch: string | null;
    }
  | undefined
> {
  const row = await db
    .selectFrom("runs")
    .select([
      "id",
      "family",
      "test_run_name",
      "is_china_region",
      "is_next_gen",
      "nora_site",
      "env",
      "baseurl",
      "branch",
    ])
    .where("test_run_key", "=", key)
    .executeTakeFirst();
  return row && { ...row, id: Number(row.id) };
}

/**
 * The stable ids of the run's tests whose final attempt failed: "unstable" only those in the
 * '@unstable' tag (spec: unstable = failed and in the tag list), "failed" only those not in it
 * (the frontend counts unstable out of failed), "any" all of them (the backend Failed box).
 */
export async function failedTestIds(
  db: Kysely<Database>,
  runId: number,
  which: "failed" | "unstable" | "any",
): Promise<number[]> {
  const inTag = db
    .selectFrom("tagged_tests")
    .innerJoin("tags", "tags.id", "tagged_tests.tag_id")
    .select("tagged_tests.test_id")
    .where("tags.name", "=", "@unstable");
  let query = db
    .selectFrom("results")
    .select("test_id")
    .distinct()
    .where("run_id", "=", runId)
    .where("is_final", "=", true)
    .where("status", "=", "failed");
  if (which !== "any")
    query = query.where("test_id", which === "unstable" ? "in" : "not in", inTag);
  const rows = await query.orderBy("test_id").execute();
  return rows.map((row) => Number(row.test_id));
}

/** The highest attempt the run has, reported (results) or launched (builds); 0 when none. */
export async function highestAttempt(
  db: Kysely<Database>,
  runId: number,
  key: string,
): Promise<number> {
  const row = await db
    .selectNoFrom([
      sql<string>`coalesce((SELECT max(attempt) FROM results WHERE run_id = ${runId}), 0)`.as(
        "reported",
      ),
      sql<string>`coalesce((SELECT max(attempt) FROM builds WHERE test_run_key = ${key}), 0)`.as(
        "launched",
      ),
    ])
    .executeTakeFirstOrThrow();
  return Math.max(Number(row.reported), Number(row.launched));
}

/**
 * Takes an active build nobody has claimed yet for this server process, once: a job delivered
 * twice, or a second server, gets undefined and leaves it alone. A build another server claimed
 * is taken only by takeBuild, once that server's lease ran out.
 */
export async function claimBuild(
  db: Kysely<Database>,
  id: number,
  server: string,
  tokenHash: string,
): Promise<BuildRow | undefined> {
  const row = await db
    .updateTable("builds")
    .set({
      runner_boot: server,
      token_hash: tokenHash,
      current_phase: "QUEUED",
      tries: sql<number>`tries + 1`,
    })
    .where("id", "=", id)
    .where("build_status", "=", "IN_PROGRESS")
    .where("external_id", "is", null)
    .where("runner_boot", "is", null)
    .returningAll()
    .executeTakeFirst();
  return row && normalize(row);
}

/**
 * Takes over an active build from a server whose lease ran out, once across servers (the
 * owner must still be `from`). relaunch: its old token dies (a runner of the dead server cannot
 * upload into it any more), it is started again as its next try; else the build keeps running at
 * its remote executor and only its follower changes.
 */
export async function takeBuild(
  db: Kysely<Database>,
  id: number,
  from: string,
  to: string,
  relaunch: { tokenHash: string; attempt: number; message: string } | undefined,
): Promise<BuildRow | undefined> {
  const row = await db
    .updateTable("builds")
    .set(
      relaunch
        ? {
            runner_boot: to,
            token_hash: relaunch.tokenHash,
            external_id: null,
            current_phase: "QUEUED",
            tries: sql<number>`tries + 1`,
            attempt: relaunch.attempt,
            status_message: relaunch.message,
          }
        : { runner_boot: to },
    )
    .where("id", "=", id)
    .where("build_status", "=", "IN_PROGRESS")
    .where("runner_boot", "=", from)
    .returningAll()
    .executeTakeFirst();
  return row && normalize(row);
}
