-- Ingestion writes results with COPY, tens of thousands of rows a second (docs/performance.md).
--
-- The two foreign keys of results cost more than all its indexes together: each COPYed row ran a
-- trigger that looked up its run and its test (raw COPY of 100k rows: 1.1 s with the indexes,
-- 2.1 s with the keys as well). Results are written only by the ingest writer, in the same
-- transaction that creates or locks their run and registers their tests, and Assay deletes
-- neither runs nor tests; whatever removes them one day (retention) removes their results first.
ALTER TABLE results DROP CONSTRAINT results_run_id_fkey;
ALTER TABLE results DROP CONSTRAINT results_test_id_fkey;

-- The writer reserves result ids a block at a time (one nextval per 1,000 results instead of one
-- per result) so that it knows each result's id for its attachments and API requests.
ALTER TABLE results ALTER COLUMN id SET INCREMENT BY 1000;

-- Test identities (sha256) and run-wide test ids are machine-made keys, only ever compared for
-- equality: byte-wise ("C") comparison keeps their unique indexes cheaper to maintain than a
-- language collation does (registering 100k new tests: 1.1 s -> 0.6 s of PostgreSQL CPU on a
-- C.UTF-8 database).
ALTER TABLE test_keys ALTER COLUMN identity TYPE text COLLATE "C";
ALTER TABLE results ALTER COLUMN test_run_test_id TYPE text COLLATE "C";
