-- Long texts of results stored once a month (issue 36): a test's steps are the same from run to
-- run, yet each result row held them again (164 MB per million results, docs/performance.md).
-- result_texts holds each distinct text once per month, keyed by a hash of the text (the first
-- 128 bits of its SHA-256 as a uuid, 16 bytes, computed by the parse worker); a result holds that
-- key (steps_ref, before_steps_ref) instead of the text. docs/architecture.md, "Texts stored once".
--
-- Partitioned by month like results, with the same bounds and names (result_texts_pYYYYMM):
-- `month` is the first instant (UTC) of the month of the run_at of the results that refer to
-- the text. Retention drops a month's texts with its results; nothing else collects them.
--
-- No result is rewritten: rows stored before keep their inline json_steps (their refs are
-- null), new rows hold a ref and a null json_steps (no default: '[]' took 5 bytes a row), and
-- reads take the ref's text, else the inline one, else []. Adding null columns and dropping
-- NOT NULL and defaults change only the catalogue.

CREATE TABLE result_texts (
  month timestamptz NOT NULL,
  hash uuid NOT NULL,
  body text NOT NULL,
  PRIMARY KEY (hash, month)
) PARTITION BY RANGE (month);

CREATE TABLE result_texts_pdefault PARTITION OF result_texts DEFAULT;

-- One texts partition for each month results has one (same bound).
DO $$
DECLARE
  part record;
BEGIN
  FOR part IN
    SELECT c.relname AS name, pg_get_expr(c.relpartbound, c.oid) AS bound
    FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
    WHERE i.inhparent = to_regclass('results') AND c.relname LIKE 'test\_results\_p______'
  LOOP
    EXECUTE format('CREATE TABLE %I PARTITION OF result_texts %s',
                   replace(part.name, 'test_results_p', 'result_texts_p'), part.bound);
  END LOOP;
END $$;

ALTER TABLE results
  ADD COLUMN steps_ref uuid,
  ADD COLUMN before_steps_ref uuid,
  ALTER COLUMN json_steps DROP NOT NULL,
  ALTER COLUMN json_steps DROP DEFAULT,
  ALTER COLUMN json_before_steps DROP NOT NULL,
  ALTER COLUMN json_before_steps DROP DEFAULT;
