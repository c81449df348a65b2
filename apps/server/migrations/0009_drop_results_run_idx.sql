-- Every query of one run's results reads all of them (run detail, history entries, counts), so
-- the unique index on (run_id, test_run_test_id) finds them as well as results_run_idx did, and
-- the report order (id) is a sort of at most one run's rows. Each index of results is paid on
-- every row an upload COPYs: without this one, COPY into results is 8-12% faster (100k rows of
-- a JUnit report: 1.30-1.37 s instead of 1.39-1.48 s).
DROP INDEX results_run_idx;
