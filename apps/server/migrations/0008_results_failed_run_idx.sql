-- The run lists count each run's unstable results: final failures of the tests in '@unstable'
-- (runs.repo listTaggedFailures). Without this index PostgreSQL read every result of each tagged
-- test (results_history_idx) and fetched its row to check run and status: 70 ms for 100 tagged
-- tests over 73 daily runs, growing with history (seconds, cold, over two years of runs). Here it
-- probes (run, test) among the final failures only: 7 ms, whatever the history. Failures are
-- about a tenth of the results, so ingestion maintains a small index.
CREATE INDEX results_failed_run_idx ON results (run_id, test_id) WHERE is_final AND status = 'failed';
