-- Flaky tests (issue 35): per test and job context, its last N results and the figures derived
-- from them (packages/core/src/flaky.ts), kept up to date when a run is stored. Flaky owns these
-- tables; it reads results only through the runs module. No foreign key points at results or
-- tests (their layout may change: monthly partitions).
--
-- A row exists once a test has failed or passed on a retry in its context: its window is seeded
-- from the results before, then moves with each run until it holds N passes (settled), and is
-- left alone while the test keeps passing. A test that never failed has no row.

-- The context's parts are '' when a run or result has none, so that they can be a key.
CREATE TABLE flaky_stats (
  test_id          bigint NOT NULL,
  family           text NOT NULL,
  platform         text NOT NULL,
  branch           text NOT NULL,
  site             text NOT NULL,
  environment      text NOT NULL,
  -- the window, oldest first: p passed, f failed, r passed on a retry; run_ids in step with it
  outcomes         text NOT NULL,
  run_ids          bigint[] NOT NULL,
  score            double precision NOT NULL,
  flip_rate        double precision NOT NULL,
  failure_rate     double precision NOT NULL,
  failure_low      double precision NOT NULL,
  failure_high     double precision NOT NULL,
  retries_passed   integer NOT NULL,
  last_flip_run_id bigint,
  -- N passes: left alone while the test keeps passing
  settled          boolean NOT NULL,
  updated_at       timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (test_id, family, platform, branch, site, environment)
);
-- the ranking: tests that flipped at all, highest score first (filters are a few equalities)
CREATE INDEX flaky_stats_rank_idx ON flaky_stats (score DESC) WHERE score > 0;
-- ingest: the windows of a context that move with every run (not settled)
CREATE INDEX flaky_stats_moving_idx ON flaky_stats (family, platform, branch, site, environment)
  WHERE NOT settled;

-- The runs flaky has counted (the backfill skips them).
CREATE TABLE flaky_runs (
  run_id      bigint PRIMARY KEY REFERENCES runs (id) ON DELETE CASCADE,
  counted_at  timestamptz NOT NULL DEFAULT now()
);

-- Flaky tests (test and context at or above the threshold) per family, as each UTC day ended:
-- the screen's trend, written after each run of that day.
CREATE TABLE flaky_trend (
  day     date NOT NULL,
  family  text NOT NULL,
  flaky   integer NOT NULL,
  PRIMARY KEY (day, family)
);
