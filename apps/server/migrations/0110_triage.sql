-- Triage (issue 34): failure groups by fingerprint, each failed result's fingerprint, defect
-- decisions with their history, and the runs triage has read. Triage owns these tables; it reads
-- results only through the runs module when a run is stored (docs/triage.md).
-- No foreign key points at results: its layout may change (monthly partitions); rows go with
-- their run (ON DELETE CASCADE on runs).

-- Trigram similarity of normalised messages: near matches for the analysis from past decisions.
-- pg_trgm ships with PostgreSQL's contrib (the embedded binaries and every managed service) and is
-- a trusted extension, so the database's owner may create it.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- The runs triage has fingerprinted, with what the gate and "regression" read of them: the job
-- (family, executor, branch) and when the run was made.
CREATE TABLE triage_runs (
  run_id       bigint PRIMARY KEY REFERENCES runs (id) ON DELETE CASCADE,
  run_key      text NOT NULL UNIQUE,
  family       text NOT NULL,
  executor     text,
  branch       text,
  run_at       timestamptz NOT NULL,
  triaged_at   timestamptz NOT NULL DEFAULT now()
);
-- the last runs of one job before a run (regression)
CREATE INDEX triage_runs_job_idx ON triage_runs (family, executor, branch, run_at DESC);

CREATE TABLE failure_groups (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  -- 16 hex digits of SHA-256 over type, normalised message and top own frame
  fingerprint     text NOT NULL UNIQUE,
  error_type      text NOT NULL,
  message         text NOT NULL,
  frame           text,
  -- one occurrence as the reporter wrote it (the first one seen)
  sample_message  text,
  sample_stack    text,
  first_run_id    bigint REFERENCES runs (id) ON DELETE SET NULL,
  first_result_id bigint,
  first_seen_at   timestamptz NOT NULL,
  last_seen_at    timestamptz NOT NULL
);
CREATE INDEX failure_groups_message_trgm_idx ON failure_groups USING gin (message gin_trgm_ops);

-- A failed result's group and the facts the Failures screen filters by, kept beside it so the
-- screen never reads results.
CREATE TABLE result_fingerprints (
  result_id   bigint PRIMARY KEY,
  run_id      bigint NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
  test_id     bigint NOT NULL,
  group_id    bigint NOT NULL REFERENCES failure_groups (id),
  family      text NOT NULL,
  platform    text,
  branch      text,
  nora_site   text,
  seen_at     timestamptz NOT NULL,
  -- the result's current decision (the newest of its history); null: to investigate, by default
  defect_id   bigint
);
-- a run's groups
CREATE INDEX result_fingerprints_run_idx ON result_fingerprints (run_id, group_id);
-- a group's occurrences, newest first
CREATE INDEX result_fingerprints_group_idx ON result_fingerprints (group_id, seen_at DESC);
-- the Failures screen: groups over a period
CREATE INDEX result_fingerprints_seen_idx ON result_fingerprints (seen_at, group_id);

-- Every decision ever made on a result, never updated: the history. auto = taken from an earlier
-- person's decision by the analysis (evidence says which); decided_by is null for those.
CREATE TABLE defect_decisions (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  result_id   bigint NOT NULL,
  run_id      bigint NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
  type        text NOT NULL CHECK (type IN ('to_investigate', 'product_bug', 'automation_bug',
                                            'system_issue', 'no_defect')),
  comment     text NOT NULL DEFAULT '',
  bugs        text[] NOT NULL DEFAULT '{}',
  auto        boolean NOT NULL DEFAULT false,
  evidence    jsonb,
  decided_by  text,
  decided_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX defect_decisions_result_idx ON defect_decisions (result_id, id DESC);
-- people's decisions of the last 90 days (the analysis)
CREATE INDEX defect_decisions_people_idx ON defect_decisions (decided_at DESC) WHERE NOT auto;
