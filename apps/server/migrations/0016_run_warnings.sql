-- What the reports of a run said that Assay stored otherwise than written (a test case without a
-- name, totals that disagree with the tests listed), one message each, as the upload's answer
-- gave them: the run's dialog shows them. An upload adds its own; the same message is kept once.
ALTER TABLE runs ADD COLUMN warnings text[] NOT NULL DEFAULT '{}';
