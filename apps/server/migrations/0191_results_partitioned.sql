-- Results partitioned by month (issue 36): a month of results is one table, test_results_pYYYYMM,
-- which retention drops whole instead of deleting row by row, and which reads of a run or of a
-- time window skip when it cannot hold their rows (docs/architecture.md, "Results partitions").
--
-- The partition key is run_at, the time the result's run was created (runs.created_at, copied
-- onto each of its results by ingestion): all the results of a run live in one partition, so a
-- run is never cut in two by dropping a month. runs.created_at must therefore not change once a
-- run has results, or results.run_at changes with it (the demo, which dates its runs in the
-- past, does both).
--
-- What a partitioned table cannot have, and what replaces it:
-- * A unique key without the partition key. The run's key becomes (run_id, test_run_test_id,
--   run_at): the same uniqueness, as a run has one run_at. The id stays unique by its sequence
--   (nothing else writes ids) and is found by results_id_idx.
-- * Foreign keys to results(id) (attachments, api_requests, any other table's): dropped, each
--   named in a notice. Results are deleted only by retention, which deletes what refers to them
--   (their ON DELETE CASCADE never fired before: Assay deleted no results).
--
-- The move takes the table's lock for its whole length: the server starts when it is done. It
-- says before it starts how many results it moves and how long that should take, then its
-- progress (docs/performance.md: 10M results took 5.5 minutes on the benchmark machine).

-- The move is one statement of minutes on a big store: the pool's 60 s statement limit is lifted.
SET LOCAL statement_timeout = 0;
SET LOCAL maintenance_work_mem = '256MB';

DO $$
DECLARE
  fk record;
  ix record;
BEGIN
  FOR fk IN
    SELECT conrelid::regclass::text AS tbl, conname FROM pg_constraint
    WHERE confrelid = 'results'::regclass AND contype = 'f'
  LOOP
    EXECUTE format('ALTER TABLE %s DROP CONSTRAINT %I', fk.tbl, fk.conname);
    RAISE NOTICE 'results: foreign key % of % dropped (results are partitioned)', fk.conname, fk.tbl;
  END LOOP;
  -- The old table's indexes give their names to the new table's.
  FOR ix IN
    SELECT i.relname AS name, c.conname FROM pg_index x
    JOIN pg_class i ON i.oid = x.indexrelid
    LEFT JOIN pg_constraint c ON c.conindid = x.indexrelid AND c.conrelid = x.indrelid
    WHERE x.indrelid = 'results'::regclass
  LOOP
    IF ix.conname IS NOT NULL THEN
      EXECUTE format('ALTER TABLE results RENAME CONSTRAINT %I TO %I', ix.conname, 'old_' || ix.conname);
    ELSE
      EXECUTE format('ALTER INDEX %I RENAME TO %I', ix.name, 'old_' || ix.name);
    END IF;
  END LOOP;
END $$;

ALTER TABLE results RENAME TO results_unpartitioned;

CREATE TABLE results (
  LIKE results_unpartitioned INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING STORAGE
    INCLUDING COMPRESSION,
  run_at timestamptz NOT NULL
) PARTITION BY RANGE (run_at);

-- Results whose run's month has no partition (a run dated before the first month created, or a
-- server down past the months created ahead) land here; creating their month's partition moves
-- them (storage module, partitions.repo.ts).
CREATE TABLE test_results_pdefault PARTITION OF results DEFAULT;

DO $$
DECLARE
  first_month timestamp;
  month timestamp;
  pages bigint;
  estimate bigint;
  chunk bigint := 25000;  -- pages (about 200 MB) per statement: progress a few times a minute
  done bigint := 0;
  moved bigint := 0;
  n bigint;
  started timestamptz := clock_timestamp();
BEGIN
  -- A month for each month that has runs (back at most ten years), to two months ahead; months
  -- of UTC, whatever the session's time zone.
  SELECT date_trunc('month', min(created_at) AT TIME ZONE 'UTC') INTO first_month FROM runs
  WHERE created_at >= now() - interval '10 years';
  month := least(coalesce(first_month, date_trunc('month', now() AT TIME ZONE 'UTC')),
                 date_trunc('month', now() AT TIME ZONE 'UTC'));
  WHILE month <= date_trunc('month', (now() AT TIME ZONE 'UTC') + interval '2 months') LOOP
    EXECUTE format('CREATE TABLE %I PARTITION OF results FOR VALUES FROM (%L) TO (%L)',
                   'test_results_p' || to_char(month, 'YYYYMM'),
                   to_char(month, 'YYYY-MM-DD') || ' 00:00:00+00',
                   to_char(month + interval '1 month', 'YYYY-MM-DD') || ' 00:00:00+00');
    month := month + interval '1 month';
  END LOOP;

  pages := pg_relation_size('results_unpartitioned') / current_setting('block_size')::bigint;
  IF pages = 0 THEN RETURN; END IF;
  -- The planner's count (exact enough, and free); about 14 results a page if never analyzed.
  SELECT CASE WHEN reltuples > 0 THEN reltuples ELSE pages * 14 END::bigint INTO estimate
  FROM pg_class WHERE oid = 'results_unpartitioned'::regclass;
  -- 10M results took 5.5 minutes on the benchmark machine (2 cores shared with other work,
  -- docs/performance.md): 33 s per million, half moving the rows, half building the indexes.
  RAISE NOTICE 'results: moving about % results (% MB) into monthly partitions; expect about % minutes (35 s per million on a small 2-core machine), during which the server does not answer',
    estimate, pg_relation_size('results_unpartitioned') / 1000000, ceil(estimate * 35.0 / 1e6 / 60);
  -- The old table read in page order, a chunk at a time (TID range scans): each chunk one
  -- sequential read, routed to its months.
  WHILE done < pages LOOP
    INSERT INTO results
    SELECT r.*, coalesce(runs.created_at, '-infinity')
    FROM results_unpartitioned r LEFT JOIN runs ON runs.id = r.run_id
    WHERE r.ctid >= format('(%s,0)', done)::tid AND r.ctid < format('(%s,0)', done + chunk)::tid;
    GET DIAGNOSTICS n = ROW_COUNT;
    moved := moved + n;
    done := done + chunk;
    RAISE NOTICE 'results: % of % results moved (% %%), % s', moved, estimate,
      least(100, round(100.0 * done / pages)), round(extract(epoch FROM clock_timestamp() - started));
  END LOOP;
  RAISE NOTICE 'results: % results moved in % s; building the indexes', moved,
    round(extract(epoch FROM clock_timestamp() - started));
END $$;

CREATE INDEX results_id_idx ON results (id);
ALTER TABLE results ADD CONSTRAINT results_run_id_test_run_test_id_key
  UNIQUE (run_id, test_run_test_id, run_at);
CREATE INDEX results_failed_run_idx ON results (run_id, test_id)
  WHERE is_final AND status = 'failed';
CREATE INDEX results_failed_time_idx ON results (start_time, test_id)
  WHERE is_final AND status = 'failed'
    AND (error_message IS NULL OR error_message NOT LIKE '%Pending reason%');
CREATE INDEX results_latest_final_idx ON results (test_id, start_time DESC NULLS LAST, id DESC)
  INCLUDE (status, run_id)
  WHERE is_final;

-- Indexes other migrations gave results (0001-0189), made again on the partitioned table.
DO $$
DECLARE
  ix record;
BEGIN
  FOR ix IN
    SELECT substr(i.relname, 5) AS name, pg_get_indexdef(x.indexrelid) AS def FROM pg_index x
    JOIN pg_class i ON i.oid = x.indexrelid
    WHERE x.indrelid = 'results_unpartitioned'::regclass
      AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid)
      AND substr(i.relname, 5) NOT IN ('results_failed_run_idx', 'results_failed_time_idx',
                                       'results_latest_final_idx')
  LOOP
    EXECUTE regexp_replace(
      regexp_replace(ix.def, '^(CREATE (UNIQUE )?INDEX )\S+', '\1' || quote_ident(ix.name)),
      ' ON (public\.)?results_unpartitioned ', ' ON results ');
    RAISE NOTICE 'results: index % made again', ix.name;
  END LOOP;
END $$;

-- The id sequence outlives the old table (its identity column's sequence goes with it).
CREATE SEQUENCE results_id_seq_new INCREMENT BY 1000;
SELECT setval('results_id_seq_new', last_value, is_called) FROM results_id_seq;
DROP TABLE results_unpartitioned;
ALTER SEQUENCE results_id_seq_new RENAME TO results_id_seq;
ALTER SEQUENCE results_id_seq OWNED BY results.id;
ALTER TABLE results ALTER COLUMN id SET DEFAULT nextval('results_id_seq');

-- Autovacuum analyzes partitions, never their parent: the planner's figures for the whole table
-- (joins above the partitions) come from here.
ANALYZE results;
