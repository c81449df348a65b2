import type { Generated, JSONColumnType } from "kysely";
import type { DefaultTimestamp, Defaulted, Family, Timestamp } from "./column-types.js";

/** Tables of builds (migration 0020) and data harmonization (0050): split from schema.ts for size. */

export interface BuildsTable {
  id: Generated<number>;
  family: Family;
  region: "US" | "CHINA";
  executor_kind: "local" | "codebuild" | "github";
  external_id: string | null;
  external_url: string | null;
  test_run_key: string;
  rerun_of: "failed" | "unstable" | null;
  attempt: Defaulted<number>;
  mode: string;
  test_run_name: string;
  executor: string;
  source_version: string;
  test_tag: string | null;
  nora_site: string | null;
  environment: string | null;
  base_url: string | null;
  env: string | null;
  host: string | null;
  test_file: string | null;
  users: number | null;
  run_time: string | null;
  spawn_rate: number | null;
  /** The validated request, secrets redacted. */
  payload: JSONColumnType<Record<string, unknown>>;
  started_by_id: number | null;
  started_by_email: string;
  started_by_name: string;
  current_phase: Defaulted<string>;
  build_status: Defaulted<string>;
  status_message: string | null;
  start_time: DefaultTimestamp;
  end_time: Timestamp | null;
  deadline: Timestamp;
  token_hash: string | null;
  runner_boot: string | null;
  log_key: string | null;
  log_bytes: Defaulted<number>;
  /** Migration 0021: a Stop that may reach another server than the one running the build. */
  stop_requested_at: Timestamp | null;
  stop_requested_by: string | null;
  /** Where a remote build's log is (CodeBuild: its CloudWatch Logs group and stream). */
  remote_log: JSONColumnType<RemoteLog> | null;
  /** Migration 0080: 1 for the first start, one more each time a server takes the build over. */
  tries: Defaulted<number>;
}

/** A build's history (migration 0080), oldest first. */
export interface BuildEventsTable {
  id: Generated<number>;
  build_id: number;
  at: DefaultTimestamp;
  kind: "queued" | "started" | "waiting" | "taken_over" | "stop_requested" | "finished";
  server_id: string | null;
  message: string;
}

/** Server processes and their leases (migration 0080), by the database's clock. */
export interface ServersTable {
  id: string;
  host: string;
  pid: number;
  data_dir: string;
  started_at: DefaultTimestamp;
  heartbeat_at: DefaultTimestamp;
  lease_until: Timestamp;
  ended_at: Timestamp | null;
}

/**
 * A remote build's log at its executor: CodeBuild writes to CloudWatch Logs; a GitHub Actions
 * run keeps one log per job.
 */
export type RemoteLog =
  { kind: "cloudwatch"; group: string; stream: string } | { kind: "github"; run: string };

/** Data harmonization runs (migration 0050); rows hold the spec's fields as JSON. */
export interface DhRunsTable {
  id: Generated<number>;
  platform: string;
  type: string;
  env_type: string;
  env: string;
  schema: Defaulted<string>;
  kind: string;
  state: Defaulted<string>;
  error: string | null;
  demo: Defaulted<boolean>;
  started_by: string | null;
  created_at: DefaultTimestamp;
  finished_at: Timestamp | null;
  /** Migration 0080: the server process running it. */
  owner_server: string | null;
}

export interface DhRunRowsTable {
  run_id: number;
  id: number;
  status: string;
  data: JSONColumnType<Record<string, unknown>>;
  /** The row's last Find missing rows result (migration 0051), and when it was computed. */
  missing_rows: JSONColumnType<Record<string, unknown> | null, string | undefined, string | null>;
  missing_rows_at: Timestamp | null;
}
