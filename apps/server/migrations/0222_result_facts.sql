-- A result's run facts stored once (issue 36): every result copied its run's site, version,
-- commit, browser, platform, executor, branch and base URL (about 93 MB per million results)
-- although they are nearly always the same for all results of an upload. They may differ per
-- result (JUnit properties per test case, merged uploads), so they are not moved onto `runs`:
-- each distinct tuple is stored once here and a result holds its id in `facts_id`, with NULL in
-- the eight columns. Rows written before keep their own values and facts_id NULL; reads take
-- the row's values when facts_id is NULL, else the tuple's (db/results-sql.ts factOf).
--
-- `key` finds a tuple whatever its NULLs: the first 128 bits of the SHA-256 of the tuple's JSON
-- array (db/results-sql.ts factsKey), made in the one statement that stores an upload's tuples.
-- It is not unique, on purpose: an upload stores its new tuples inside its own transaction, and
-- a unique key would make a second upload of the same new tuple wait for the first to commit
-- (CI shards of a new commit, one after the other), or deadlock two uploads that met two new
-- tuples in opposite orders. Without it, two uploads at once may each store the tuple (a row of
-- a few dozen bytes twice); later uploads take the oldest. Tuples are never deleted: a few per
-- run, and any month's results may refer to them.
CREATE TABLE result_facts (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  key uuid NOT NULL,
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
CREATE INDEX result_facts_key_idx ON result_facts (key);
