-- A test's suite path, file and name stored once, in `tests` (issue 36): every result copied
-- them although they are the same for a test in every run (57.5 + 42.6 + 40.2 MB per million
-- results). A result whose three equal its test's holds NULL in all three; `results.name IS
-- NULL` means "the test's" (read through db/results-sql.ts nameOf, suitePathOf, fileOf). A
-- result that differs from its test (an explicit id renamed or moved) keeps its own three.
-- `tests.name` and `tests.suite_path` are those of the test's first result written after this
-- migration and never change (tests.file already is its first one's): the results that refer
-- to them stay right. No result is rewritten: rows stored before keep their own texts.
ALTER TABLE tests ADD COLUMN name text, ADD COLUMN suite_path text[];
ALTER TABLE results ALTER COLUMN name DROP NOT NULL, ALTER COLUMN suite_path DROP NOT NULL;
