-- Builds launched from Assay (issue 20): one row per build, owned by modules/builds. The spec's
-- record fields (TEST_RUN_NAME, NORA_SITE, ...) are columns so lists never unpack JSON; the
-- validated request, secrets redacted, is kept whole in payload for the audit trail.
CREATE TABLE builds (
  id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  family           text NOT NULL CHECK (family IN ('frontend', 'backend', 'load')),
  region           text NOT NULL CHECK (region IN ('US', 'CHINA')),
  executor_kind    text NOT NULL CHECK (executor_kind IN ('local', 'codebuild', 'github')),
  -- the executor's own id (CodeBuild build id, GitHub run id, local process id) once started
  external_id      text,
  external_url     text,
  test_run_key     text NOT NULL,
  rerun_of         text CHECK (rerun_of IN ('failed', 'unstable')),
  -- attempts the run had before this build (ASSAY_ATTEMPT): a rerun's results are new attempts
  attempt          integer NOT NULL DEFAULT 0,
  mode             text NOT NULL,
  test_run_name    text NOT NULL,
  executor         text NOT NULL,
  source_version   text NOT NULL,
  test_tag         text,
  nora_site        text,
  environment      text,
  base_url         text,
  env              text,
  host             text,
  test_file        text,
  users            integer,
  run_time         text,
  spawn_rate       double precision,
  payload          jsonb NOT NULL,
  started_by_id    bigint REFERENCES users (id) ON DELETE SET NULL,
  started_by_email text NOT NULL,
  started_by_name  text NOT NULL,
  current_phase    text NOT NULL DEFAULT 'SUBMITTED',
  build_status     text NOT NULL DEFAULT 'IN_PROGRESS',
  status_message   text,
  start_time       timestamptz NOT NULL DEFAULT now(),
  end_time         timestamptz,
  -- the build time limit: past it the build is stopped and marked TIMED_OUT
  deadline         timestamptz NOT NULL,
  -- sha256 of ASSAY_TOKEN: ingest into test_run_key only, until the build ends
  token_hash       text UNIQUE,
  -- the server process running a local build (its boot id), so a restarted server finds its orphans
  runner_boot      text,
  log_key          text,
  log_bytes        bigint NOT NULL DEFAULT 0
);

-- each list, newest first
CREATE INDEX builds_list_idx ON builds (family, region, id DESC);
-- a run's builds
CREATE INDEX builds_run_idx ON builds (test_run_key, id DESC);
-- what the poller and the restart recovery look at
CREATE INDEX builds_active_idx ON builds (executor_kind, id) WHERE build_status = 'IN_PROGRESS';
-- the per-user rate limit counts a user's recent builds
CREATE INDEX builds_user_recent_idx ON builds (started_by_id, start_time DESC);
