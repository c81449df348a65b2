-- A result's run facts stored once (issue 36): every result copied its run's site, version,
-- commit, browser, platform, executor, branch and base URL (about 93 MB per million results)
-- although they are nearly always the same for all results of an upload. They may differ per
-- result (JUnit properties per test case, merged uploads), so they are not moved onto `runs`:
-- each distinct tuple is stored once here and a result holds its id in `facts_id`, with NULL in
-- the eight columns. Rows written before keep their own values and facts_id NULL; reads take
-- the row's values when facts_id is NULL, else the tuple's (db/results-sql.ts factOf).
--
-- `key` makes a tuple unique whatever its NULLs (UNIQUE NULLS NOT DISTINCT needs PostgreSQL 15;
-- Assay runs on 14): the first 128 bits of the SHA-256 of the tuple's JSON array, made by
-- db/results-sql.ts FACTS_KEY in the one statement that stores an upload's tuples. Tuples are
-- never deleted: a few per run, and any month's results may refer to them.
CREATE TABLE result_facts (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  key uuid NOT NULL UNIQUE,
  nora_site text,
  version text,
  commit_hash text,
  chrome_version text,
  platform text,
  executor text,
  branch text,
  baseurl text
);
ALTER TABLE results ADD COLUMN facts_id integer;
