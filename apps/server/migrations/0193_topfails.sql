-- Top Fails kept (issue 36): each test's failures over the window, kept up to date by a job off
-- the upload's path, so that the screen reads the top of an index instead of counting two months
-- of failures (600,000 index entries at a year of 100,000-test daily runs) on every call. The
-- topfails module owns these tables; docs/architecture.md ("Top Fails kept") says how the read
-- combines them with what they do not hold yet, exactly.

-- What was counted, as of one point: the window of `months` months as it started at
-- counted_from. stale: something the totals hold changed (a counted run's results re-ranked,
-- removed by retention): reads count from results until the job has counted everything again.
-- One row, written by the job only (no row until its first step: a fresh or restored store
-- counts from results until then).
CREATE TABLE topfails_state (
  id            boolean PRIMARY KEY DEFAULT true CHECK (id),
  months        integer NOT NULL,
  counted_from  timestamptz,
  stale         boolean NOT NULL DEFAULT false
);

-- The runs counted, each with how many of its failures the totals still hold (those with a start
-- time at or after counted_from). A run without a row is counted by each read from results.
CREATE TABLE topfails_runs (
  run_id  bigint PRIMARY KEY,
  fails   integer NOT NULL
);
-- A counted run deleted while some of its failures are counted: the read's check for it.
CREATE INDEX topfails_runs_failing_idx ON topfails_runs (run_id) WHERE fails > 0;

-- Per test (its own id; aliases are resolved by the read): final, not pending failures of the
-- counted runs with a start time at or after counted_from.
CREATE TABLE topfails_totals (
  test_id     bigint PRIMARY KEY,
  fail_count  integer NOT NULL
);
-- Top Fails reads its first rows in this order.
CREATE INDEX topfails_totals_rank_idx ON topfails_totals (fail_count DESC, test_id);
