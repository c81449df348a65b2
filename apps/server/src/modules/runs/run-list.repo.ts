import type { RunFilters } from "@assay/core";
import { sql } from "kysely";
import type { Db } from "../../db/pool.js";

export type Family = "frontend" | "backend" | "load";

/** The run lists' page and count, with their filters (issue 32); the runs' columns they read. */

export const RUN_COLUMNS = [
  "id",
  "test_run_key",
  "family",
  "test_run_name",
  "state",
  "nora_site",
  "env",
  "baseurl",
  "executor",
  "branch",
  "commit",
  "is_next_gen",
  "is_china_region",
  "host",
  "test_file",
  "users",
  "run_time",
  "spawn_rate",
  "load_region",
  "report_location",
  "total",
  "passed",
  "failed",
  "pending",
  "flaky",
  "duration_ms",
  "started_at",
  "finished_at",
  "created_at",
] as const;

// In place: rows are fresh from the driver, and copying big result lists costs time.
export function withIds<T extends { id: number }>(row: T): T {
  row.id = Number(row.id);
  return row;
}

/** `\`, `%` and `_` of a search taken literally by ILIKE (whose escape character is `\`). */
const escapeLike = (text: string) => text.replace(/[\\%_]/g, "\\$&");
const DAY_MS = 86_400_000;

/**
 * The runs of a family that pass the list's filters. Each filter has an index that finds it at
 * 100,000 runs (migration 0096; docs/performance.md): the family's runs in order with every
 * equality filter's column (the count reads it alone), site, env and branch in front for a rare
 * value, the search trigram indexes on name and key.
 */
function filteredRuns(db: Db, family: Family, filters: RunFilters) {
  let query = db.kysely.selectFrom("runs").where("family", "=", family);
  if (filters.platform) query = query.where("is_next_gen", "=", filters.platform === "nextGen");
  if (filters.region) query = query.where("is_china_region", "=", filters.region === "CHINA");
  if (filters.site)
    query = query.where(family === "frontend" ? "nora_site" : "env", "=", filters.site);
  if (filters.branch) query = query.where("branch", "=", filters.branch);
  if (filters.status) query = query.where("failed", filters.status === "failed" ? ">" : "=", 0);
  if (filters.from) query = query.where("created_at", ">=", new Date(`${filters.from}T00:00:00Z`));
  if (filters.to)
    query = query.where(
      "created_at",
      "<",
      new Date(Date.parse(`${filters.to}T00:00:00Z`) + DAY_MS),
    );
  if (filters.q) {
    const like = `%${escapeLike(filters.q)}%`;
    query = query.where((eb) =>
      eb.or([eb("test_run_name", "ilike", like), eb("test_run_key", "ilike", like)]),
    );
  }
  return query;
}

export async function listRuns(
  db: Db,
  family: Family,
  filters: RunFilters,
  limit: number,
  offset: number,
) {
  const rows = await filteredRuns(db, family, filters)
    .select(RUN_COLUMNS)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(limit)
    .offset(offset)
    .execute();
  return rows.map(withIds);
}
export type RunRow = Awaited<ReturnType<typeof listRuns>>[number];

/** The runs that pass the filters, counted up to `cap` + 1 (the count stops past the cap). */
export async function countRuns(
  db: Db,
  family: Family,
  filters: RunFilters,
  cap: number,
): Promise<number> {
  const row = await db.kysely
    .selectFrom(
      filteredRuns(db, family, filters)
        .select(sql<number>`1`.as("one"))
        .limit(cap + 1)
        .as("matching"),
    )
    .select((eb) => eb.fn.countAll<string>().as("count"))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
