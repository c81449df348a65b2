import {
  withUnstable,
  type Catalog,
  type DailyChart,
  type DailyPoint,
  type DailyRun,
  type DailyRunsQuery,
  type RerunList,
} from "@assay/core";
import type { Db } from "../../db/pool.js";
import { unstableCounts } from "../runs/runs.service.js";
import { rolledUpRunDays, type RolledUpDay } from "../retention/rollups.repo.js";
import { listDailyRuns, listRerunRuns, type DailyRunRow } from "./dashboard.repo.js";

/**
 * The Dashboard's data (spec section 2 "Dashboard", section 9): only runs by the daily robot's
 * executor name make the chart, summed per UTC day with every day of the period present (a day
 * without runs is zeros); the table lists runs of the rerun-failed executor, its own and those
 * it reran in place. Which sites are DEV
 * or STAGE is the catalogue's `environment` of each site; backend runs go by their env.
 */

const DAY_MS = 86_400_000;

/** The sites (frontend) or envs (backend) of `query` in the catalogue. */
export function dailyTargets(catalog: Catalog, query: DailyRunsQuery): string[] {
  if (query.family === "backend") return catalog.dailyRuns.apiEnvironments[query.env];
  return catalog.sites[query.platform]
    .filter((site) => site.environment === query.env)
    .map((site) => site.value);
}

/** Midnight UTC of the first day of a period of `days` days ending on the day of `now`. */
export function periodStart(now: Date, days: number): Date {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return new Date(today - (days - 1) * DAY_MS);
}

const dayOf = (at: Date) => at.toISOString().slice(0, 10);

/** A run's counts as every screen counts them: unstable results out of failed. */
type CountedRun = DailyRunRow & { unstable: number };

/** The rows with their unstable results counted (backend runs have none, spec section 2). */
async function counted(
  db: Db,
  family: DailyRunsQuery["family"],
  rows: readonly DailyRunRow[],
): Promise<CountedRun[]> {
  const unstable =
    family === "frontend"
      ? await unstableCounts(
          db,
          rows.map((row) => row.id),
        )
      : new Map();
  return rows.map((row) => withUnstable(row, unstable.get(row.id) ?? 0));
}

function toRun(row: CountedRun): DailyRun {
  const { key, name, executor, url, total, passed, failed, unstable, skipped } = row;
  return {
    key,
    name,
    executor,
    url,
    createdAt: row.createdAt.toISOString(),
    total,
    passed,
    failed,
    unstable,
    skipped,
  };
}

/** Every day of the period, oldest first, with the sums of its runs (zeros without runs). */
export function sumPerDay(rows: readonly CountedRun[], since: Date, days: number): DailyPoint[] {
  const points: DailyPoint[] = Array.from({ length: days }, (_, i) => ({
    date: dayOf(new Date(since.getTime() + i * DAY_MS)),
    total: 0,
    passed: 0,
    failed: 0,
    unstable: 0,
    skipped: 0,
    runs: [],
  }));
  const byDate = new Map(points.map((point) => [point.date, point]));
  for (const row of rows) {
    const point = byDate.get(dayOf(row.createdAt));
    if (!point) continue;
    point.total += row.total;
    point.passed += row.passed;
    point.failed += row.failed;
    point.unstable += row.unstable;
    point.skipped += row.skipped;
    point.runs.push(toRun(row));
  }
  return points;
}

/**
 * Adds the runs retention removed (their daily roll-ups) to their days: the counts stay, the
 * runs themselves are no longer listed. Unstable results were counted when the run was removed.
 */
export function addRolledUp(points: DailyPoint[], rolled: readonly RolledUpDay[]): DailyPoint[] {
  const byDate = new Map(points.map((point) => [point.date, point]));
  for (const day of rolled) {
    const point = byDate.get(day.date);
    if (!point) continue;
    const counted = withUnstable(day, day.unstable);
    point.total += counted.total;
    point.passed += counted.passed;
    point.failed += counted.failed;
    point.unstable += counted.unstable;
    point.skipped += counted.skipped;
  }
  return points;
}

export async function dailyChart(
  db: Db,
  catalog: Catalog,
  query: DailyRunsQuery,
  now = new Date(),
): Promise<DailyChart> {
  const executor = catalog.dailyRuns.executor;
  const targets = dailyTargets(catalog, query);
  const since = periodStart(now, query.days);
  const filter = { family: query.family, executor, since, targets };
  const [rows, rolled] = await Promise.all([
    listDailyRuns(db, filter),
    rolledUpRunDays(db, filter),
  ]);
  const days = sumPerDay(await counted(db, query.family, rows), since, query.days);
  return { executor, targets, days: addRolledUp(days, rolled) };
}

export async function rerunList(
  db: Db,
  catalog: Catalog,
  query: DailyRunsQuery,
  now = new Date(),
): Promise<RerunList> {
  const executor = catalog.dailyRuns.rerunExecutor;
  const targets = dailyTargets(catalog, query);
  const since = periodStart(now, query.days);
  const rows = await listRerunRuns(db, { family: query.family, executor, since, targets });
  return { executor, targets, runs: (await counted(db, query.family, rows)).map(toRun) };
}
