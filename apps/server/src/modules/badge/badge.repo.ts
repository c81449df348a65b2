import type { Db } from "../../db/pool.js";
import type { BadgeQuery } from "@assay/core";

/** The latest finished run of a family matching the badge's filters (runs: owned by ingestion). */

export interface BadgeRun {
  total: number;
  passed: number;
  failed: number;
  skipped: number;
}

export async function latestRun(
  db: Db,
  family: string,
  query: Pick<BadgeQuery, "branch" | "platform" | "site" | "name">,
): Promise<BadgeRun | undefined> {
  // runs_family_created_idx walks the family's runs newest first; the filters are checked on
  // each until one matches.
  const { rows } = await db.pool.query<BadgeRun>(
    `SELECT total, passed, failed, pending AS skipped FROM runs
     WHERE family = $1 AND state = 'finished'
       AND ($2::text IS NULL OR branch = $2)
       AND ($3::boolean IS NULL OR is_next_gen = $3)
       AND ($4::text IS NULL OR nora_site = $4)
       AND ($5::text IS NULL OR strpos(lower(test_run_name), lower($5)) > 0)
     ORDER BY created_at DESC, id DESC LIMIT 1`,
    [
      family,
      query.branch ?? null,
      query.platform === undefined ? null : query.platform === "nextGen",
      query.site ?? null,
      query.name ?? null,
    ],
  );
  return rows[0];
}
