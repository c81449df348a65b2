/** Retention's roll-ups (migration 0170), as typed reads see them: split from schema.ts for size. */

export interface RetentionTestDaysTable {
  day: string;
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
