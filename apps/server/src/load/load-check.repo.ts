import type pg from "pg";
import { withClient as withBenchClient } from "../bench/databases.js";

/** What the database holds for one run an uploader was answered for. */
export interface StoredRun {
  test_run_key: string;
  total: number;
  passed: number;
  failed: number;
  pending: number;
  flaky: number;
  /** Rows in `results` (attempts included). */
  results: number;
}

const withClient = <T>(url: string, fn: (client: pg.Client) => Promise<T>) =>
  withBenchClient(url, fn, "assay-load-check");

/** The dataset's size, for the report. */
export async function datasetCounts(
  url: string,
): Promise<{ runs: number; results: number; tests: number; attachments: number }> {
  return withClient(url, async (client) => {
    const { rows } = await client.query<{
      runs: number;
      results: number;
      tests: number;
      attachments: number;
    }>(
      `SELECT (SELECT count(*)::int FROM runs) AS runs, (SELECT count(*)::int FROM results) AS results,
              (SELECT count(*)::int FROM tests) AS tests,
              (SELECT count(*)::int FROM attachments) AS attachments`,
    );
    return rows[0]!;
  });
}

/**
 * The load test's check after the upload scenario, on the server's own database: every run the
 * uploaders' executor made, with the counts stored on it and its rows in `results`.
 */
export async function runsOfExecutor(url: string, executor: string): Promise<StoredRun[]> {
  return withClient(url, async (client) => {
    const { rows } = await client.query<StoredRun>(
      `SELECT runs.test_run_key, runs.total, runs.passed, runs.failed, runs.pending, runs.flaky,
              (SELECT count(*)::int FROM results r WHERE r.run_id = runs.id) AS results
       FROM runs WHERE runs.executor = $1`,
      [executor],
    );
    return rows;
  });
}
