import type { Generated, JSONColumnType } from "kysely";
import type { Timestamp } from "./column-types.js";

/** Results and what hangs on each (texts, attachments, API requests): split from schema.ts for size. */

export interface StepRow {
  action: string;
  passed: boolean | null;
  location?: string;
  duration_ms?: number;
}

/**
 * A result's run facts: columns of results (rows written before migration 0222) and of the
 * tuples stored once in result_facts (db/results-sql.ts FACT_COLUMNS, factOf).
 */
export interface RunFactColumns {
  nora_site: string | null;
  version: string | null;
  commit_hash: string | null;
  chrome_version: string | null;
  platform: string | null;
  executor: string | null;
  branch: string | null;
  baseurl: string | null;
}

export interface ResultsTable extends RunFactColumns {
  id: Generated<number>;
  run_id: number;
  /** Its run's created_at: the partition key (migration 0191). */
  run_at: Date;
  test_run_test_id: string;
  test_id: number;
  attempt: number;
  is_final: boolean;
  flaky: boolean;
  status: "passed" | "failed" | "skipped";
  failure_type: "failure" | "error" | null;
  /** Null with suite_path and file: its test's (0221; read with results-sql.ts nameOf...). */
  name: string | null;
  suite_path: string[] | null;
  title: string | null;
  scenario: string | null;
  description: string | null;
  file: string | null;
  root_path: string | null;
  body: string | null;
  error_message: string | null;
  error_name: string | null;
  error_stack: string | null;
  console_log: string | null;
  console_errors: string | null;
  request_errors: string | null;
  tags: string[];
  start_time: Timestamp | null;
  end_time: Timestamp | null;
  duration_ms: number;
  /** Its run facts as a tuple of result_facts (0222; then its own are null): read with factOf. */
  facts_id: number | null;
  properties: JSONColumnType<Record<string, string>> | null;
  /**
   * Steps stored inline by rows written before migration 0216; null in later rows, whose steps
   * are in result_texts (steps_ref). Read through db/results-sql.ts stepsOf.
   */
  json_steps: JSONColumnType<StepRow[] | null>;
  json_before_steps: JSONColumnType<StepRow[] | null>;
  /** Key (uuid: SHA-256's first 128 bits) of the steps' JSON text in result_texts of the run_at's month; null: none. */
  steps_ref: string | null;
  before_steps_ref: string | null;
  /** The same for error_stack and console_log (migration 0217); read through stackOf, logOf. */
  stack_ref: string | null;
  log_ref: string | null;
}

/** Distinct tuples of results' run facts (migration 0222), each stored once. */
export interface ResultFactsTable extends RunFactColumns {
  id: Generated<number>;
  /** The first 128 bits of the SHA-256 of the tuple's JSON array (results-sql.ts factsKey). */
  key: string;
}

/** Texts of results stored once a month (migration 0216), partitioned by month. */
export interface ResultTextsTable {
  /** First instant (UTC) of the month of the run_at of the results referring to it. */
  month: Date;
  /** The first 128 bits of `body`'s SHA-256 (ingest/pipeline/result-texts.ts). */
  hash: string;
  body: string;
}

export interface AttachmentsTable {
  id: Generated<number>;
  result_id: number;
  name: string;
  content_type: string;
  description: string | null;
  step_index: number | null;
  taken_at: Timestamp | null;
  object_key: string;
  size: number;
}

export interface ApiRequestsTable {
  id: Generated<number>;
  run_id: number;
  result_id: number;
  method: string;
  url: string;
  status: number;
  response_time_ms: number;
}

export interface ResultTables {
  results: ResultsTable;
  result_texts: ResultTextsTable;
  result_facts: ResultFactsTable;
  attachments: AttachmentsTable;
  api_requests: ApiRequestsTable;
}
