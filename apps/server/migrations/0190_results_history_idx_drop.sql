-- results_history_idx (test_id, start_time DESC NULLS FIRST) INCLUDE (status, run_id) and
-- results_latest_final_idx (test_id, start_time DESC NULLS LAST, id DESC) INCLUDE (status), both
-- over final results, serve the same probes: a test's results, newest first. One index is kept:
-- the second, with run_id included as the first had it (a follow-up's previous result of a test
-- reads run_id and status of the test's results from the index alone). The reads that used the
-- first (a test's history, a run's earlier history) now state NULLS LAST where their answer has
-- no NULL or wants them last. Each index of results costs about 50 MB per million results
-- (docs/performance.md) and is paid on every row an upload writes.
DROP INDEX results_history_idx;
DROP INDEX results_latest_final_idx;
CREATE INDEX results_latest_final_idx ON results (test_id, start_time DESC NULLS LAST, id DESC)
  INCLUDE (status, run_id)
  WHERE is_final;
