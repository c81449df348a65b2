-- Retention (issue 36): what the nightly pass removes is rolled up first, so the Dashboard, a
-- test's pass rate and Top Fails keep counting removed periods; each pass is recorded with its
-- owner and lease, so two servers (or a server and `assay retention`) never run it at once.
-- The retention module owns these tables.

-- Final results removed by retention, counted per UTC day of their start, family and test.
-- Rows are only ever added to (a later pass that removes more of the same day adds its counts).
CREATE TABLE retention_test_days (
  day      date NOT NULL,
  family   text NOT NULL,
  test_id  bigint NOT NULL,
  passed   integer NOT NULL DEFAULT 0,
  failed   integer NOT NULL DEFAULT 0,
  skipped  integer NOT NULL DEFAULT 0,
  PRIMARY KEY (test_id, day, family)
);
-- Top Fails over a window: the failing tests of the days in it
CREATE INDEX retention_test_days_failed_idx ON retention_test_days (day, test_id) WHERE failed > 0;

-- Whole runs removed by retention, summed per UTC day of their creation and the facts the
-- Dashboard's chart selects runs by (executor, and site or environment). Unstable results are
-- counted as the Dashboard counted them when the run was removed.
CREATE TABLE retention_run_days (
  day        date NOT NULL,
  family     text NOT NULL,
  executor   text NOT NULL DEFAULT '',
  nora_site  text NOT NULL DEFAULT '',
  env        text NOT NULL DEFAULT '',
  runs       integer NOT NULL DEFAULT 0,
  total      integer NOT NULL DEFAULT 0,
  passed     integer NOT NULL DEFAULT 0,
  failed     integer NOT NULL DEFAULT 0,
  unstable   integer NOT NULL DEFAULT 0,
  skipped    integer NOT NULL DEFAULT 0,
  PRIMARY KEY (family, executor, day, nora_site, env)
);

-- Each retention pass: who ran it (a server's id from `servers`, or the CLI), its lease (renewed
-- between batches, by the database's clock), what it removed and what it returned.
CREATE TABLE retention_passes (
  id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  owner          text NOT NULL,
  trigger        text NOT NULL CHECK (trigger IN ('nightly', 'cli', 'demo')),
  state          text NOT NULL DEFAULT 'running'
                 CHECK (state IN ('running', 'finished', 'failed', 'abandoned')),
  started_at     timestamptz NOT NULL DEFAULT now(),
  lease_until    timestamptz NOT NULL,
  finished_at    timestamptz,
  -- counts removed: runs, results, details trimmed, attachments, partitions dropped
  removed        jsonb NOT NULL DEFAULT '{}',
  database_bytes_before bigint,
  database_bytes_after  bigint,
  -- estimated table and index bytes of what was removed (dropped partitions: their exact size)
  bytes_freed    bigint NOT NULL DEFAULT 0,
  object_bytes_freed bigint NOT NULL DEFAULT 0,
  message        text
);
-- At most one pass runs at a time: a second claim fails on this index.
CREATE UNIQUE INDEX retention_passes_one_running_idx ON retention_passes ((true)) WHERE state = 'running';
CREATE INDEX retention_passes_started_idx ON retention_passes (started_at DESC);

-- A whole run being removed: its unstable count, read while its results were still there, so the
-- run's line in retention_run_days is written (with the run's removal) after its results are gone.
-- A pass stopped half-way leaves the row; the next pass finishes the run from it.
CREATE TABLE retention_doomed_runs (
  run_id    bigint PRIMARY KEY,
  unstable  integer NOT NULL DEFAULT 0
);
