/** Retention's roll-ups (migration 0170), as typed reads see them: split from schema.ts for size. */

export interface RetentionTestDaysTable {
  /** The UTC day, or the first of its month once Top Fails' window cannot reach it. */
  day: string;
  /** The first and last day counted in the row (null in rows written before migration 0215). */
  first_day: string | null;
  last_day: string | null;
  family: string;
  test_id: number;
  passed: number;
  failed: number;
  skipped: number;
}

export interface RetentionRunDaysTable {
  day: string;
  family: string;
  executor: string;
  nora_site: string;
  env: string;
  runs: number;
  total: number;
  passed: number;
  failed: number;
  unstable: number;
  skipped: number;
}

export interface RetentionTables {
  retention_test_days: RetentionTestDaysTable;
  retention_run_days: RetentionRunDaysTable;
}
