import type { ColumnType, Generated, JSONColumnType } from "kysely";
import type { DefaultTimestamp, Defaulted, Family, Timestamp } from "./column-types.js";
import type {
  BuildEventsTable,
  BuildsTable,
  DhRunRowsTable,
  DhRunsTable,
  RemoteLog,
  ServersTable,
} from "./schema-builds-dh.js";
import type {
  ImportedReleaseIncidentsTable,
  ImportedReleasesTable,
  JiraTicketsTable,
  TrackerSyncsTable,
} from "./schema-integrations.js";
import type { ResultTables } from "./schema-results.js";
import type { RetentionTables } from "./schema-retention.js";
import type { SignInTables } from "./schema-sign-in.js";
import type { TraceabilityTables } from "./schema-traceability.js";

export type { BuildEventsTable, BuildsTable, DhRunRowsTable, DhRunsTable, RemoteLog, ServersTable };
// Still importable from schema.js, where the factories and result readers import them.
export type {
  ApiRequestsTable,
  AttachmentsTable,
  ResultsTable,
  StepRow,
} from "./schema-results.js";

/** Table types for Kysely, one interface per table created by ../../migrations. */

export interface SchemaMigrationsTable {
  version: number;
  name: string;
  checksum: string;
  applied_at: Generated<Date>;
}

export interface SettingsTable {
  id: Generated<number>;
  name: string;
  description: string;
  is_active: boolean;
  created_at: DefaultTimestamp;
  updated_at: Generated<Date>;
  cron: string | null;
  time_zone: Defaulted<string>;
  template: ColumnType<unknown, string | null, string | null> | null;
  rerun_failures: Defaulted<boolean>;
  created_by: string | null;
  updated_by: string | null;
  schedule_from: DefaultTimestamp;
  webhook_url: string | null;
  webhook_format: "slack" | "json" | null;
  /** Set when the setting was deleted (migration 0226): it is kept, hidden and never launched. */
  archived_at: Timestamp | null;
  archived_by: string | null;
}

export interface ScheduleSlotsTable {
  id: Generated<number>;
  setting_id: number;
  slot_at: Timestamp;
  kind: "scheduled" | "manual";
  outcome: "launched" | "failed" | "missed" | "unavailable" | null;
  message: string | null;
  build_id: string | null;
  test_run_key: string | null;
  claimed_by: string;
  claimed_at: DefaultTimestamp;
  rerun_build_id: string | null;
  rerun_message: string | null;
  notify_state: "pending" | "delivered" | "failed" | null;
  notify_attempts: Defaulted<number>;
  notify_message: string | null;
  /** Set once the run's end was handled (rerun launched or summary sent): exactly once. */
  followed_up: Defaulted<boolean>;
}

export interface TestsTable {
  id: number;
  family: Family;
  title: string;
  file: string | null;
  /** Its first result's since migration 0221 (null before), never changed; with suite_path. */
  name: string | null;
  suite_path: string[] | null;
  created_at: DefaultTimestamp;
  /** How a test without an id in its report is recognised again (null: the report gave its id). */
  identity: string | null;
}

export interface RunsTable {
  id: Generated<number>;
  test_run_key: string;
  family: Family;
  test_run_name: string;
  state: Defaulted<"open" | "finished">;
  format: string | null;
  nora_site: string | null;
  env: string | null;
  baseurl: string | null;
  executor: string | null;
  branch: string | null;
  commit: string | null;
  is_next_gen: Defaulted<boolean>;
  is_china_region: Defaulted<boolean>;
  host: string | null;
  test_file: string | null;
  users: number | null;
  run_time: string | null;
  spawn_rate: number | null;
  load_region: string | null;
  report_location: string | null;
  total: Defaulted<number>;
  passed: Defaulted<number>;
  failed: Defaulted<number>;
  pending: Defaulted<number>;
  flaky: Defaulted<number>;
  duration_ms: Defaulted<number>;
  started_at: Timestamp | null;
  finished_at: Timestamp | null;
  created_at: DefaultTimestamp;
  /** What its reports said that was stored otherwise than written (upload warnings). */
  warnings: Defaulted<string[]>;
}

export interface LoadStatsTable {
  id: Generated<number>;
  run_id: number;
  method: string;
  name: string;
  requests: number;
  failures: number;
  median_ms: number | null;
  p95_ms: number | null;
  p99_ms: number | null;
  average_ms: number | null;
  min_ms: number | null;
  max_ms: number | null;
  requests_per_s: number;
  failures_per_s: number;
  aggregated: boolean;
}

export interface TagsTable {
  id: Generated<number>;
  name: string;
  created_at: DefaultTimestamp;
}

/** A deleted tag with the tests it held (migration 0227), until it is restored. */
export interface DeletedTagsTable {
  id: number;
  name: string;
  created_at: Timestamp;
  deleted_at: DefaultTimestamp;
  deleted_by: string;
  tests: JSONColumnType<{ testId: number; testName: string }[]>;
}

export interface TaggedTestsTable {
  id: Generated<number>;
  tag_id: number;
  test_id: number;
  test_name: Defaulted<string>;
}

/** The aliases module's view (migration 0155): an aliased test and the test it resolves to. */
export interface TestAliasCanonicalView {
  test_id: number;
  canonical_id: number;
}

export interface ServiceTokensTable {
  id: Generated<number>;
  name: string;
  token_hash: string;
  scopes: string[];
  created_at: DefaultTimestamp;
  last_used_at: Timestamp | null;
  revoked_at: Timestamp | null;
}

export interface IdempotencyKeysTable {
  key: string;
  fingerprint: string;
  status_code: number;
  response: JSONColumnType<object>;
  created_at: DefaultTimestamp;
}

/** An object stored ahead of the row that will name it (migration 0070, orphan-sweep.ts). */
export interface PendingObjectsTable {
  object_key: string;
  created_at: DefaultTimestamp;
}

export interface UsersTable {
  id: Generated<number>;
  /** Lower case; unique. */
  email: string;
  name: string;
  picture: string | null;
  /** scrypt$N$r$p$salt$hash (see modules/users/password.ts); null: no password sign-in. */
  password_hash: string | null;
  is_admin: Defaulted<boolean>;
  disabled_at: Timestamp | null;
  spira_user: string | null;
  /** AES-256-GCM, key derived from ASSAY_SECRET_KEY; never returned by the API. */
  spira_secret_encrypted: Buffer | null;
  /** An external issuer's user: its issuer and sub (migration 0005); null for embedded users. */
  issuer: Defaulted<string | null>;
  subject: Defaulted<string | null>;
  created_at: DefaultTimestamp;
}

export interface SignInAttemptsTable {
  id: Generated<string>;
  email: string;
  ip: string;
  created_at: DefaultTimestamp;
}

export interface OidcModelsTable {
  model: string;
  id: string;
  payload: JSONColumnType<Record<string, unknown>>;
  expires_at: Timestamp | null;
  uid: string | null;
  grant_id: string | null;
  user_code: string | null;
  consumed_at: Timestamp | null;
}

export interface OidcSigningKeysTable {
  kid: string;
  alg: string;
  jwk_encrypted: Buffer;
  created_at: DefaultTimestamp;
}

export interface Database extends ResultTables, RetentionTables, SignInTables, TraceabilityTables {
  builds: BuildsTable;
  build_events: BuildEventsTable;
  servers: ServersTable;
  schema_migrations: SchemaMigrationsTable;
  settings: SettingsTable;
  schedule_slots: ScheduleSlotsTable;
  tests: TestsTable;
  runs: RunsTable;
  load_stats: LoadStatsTable;
  tags: TagsTable;
  tagged_tests: TaggedTestsTable;
  deleted_tags: DeletedTagsTable;
  test_alias_canonical: TestAliasCanonicalView;
  imported_releases: ImportedReleasesTable;
  imported_release_incidents: ImportedReleaseIncidentsTable;
  service_tokens: ServiceTokensTable;
  idempotency_keys: IdempotencyKeysTable;
  pending_objects: PendingObjectsTable;
  users: UsersTable;
  sign_in_attempts: SignInAttemptsTable;
  oidc_models: OidcModelsTable;
  oidc_signing_keys: OidcSigningKeysTable;
  dh_runs: DhRunsTable;
  dh_run_rows: DhRunRowsTable;
  jira_tickets: JiraTicketsTable;
  tracker_syncs: TrackerSyncsTable;
}
