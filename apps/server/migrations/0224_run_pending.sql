-- A run's work after the commit that stored it, by kind (issue 36): triage's marks (0223) and
-- now flaky's. An upload's transaction marks its run for each kind; the server that stored it
-- does the work right after the answer, one step at a time; a read that needs it does it first
-- when nobody has; the sweep does what a dead server left (modules/pending). Triage's marks are
-- kept as they are, of kind 'triage'.
ALTER TABLE triage_pending RENAME TO run_pending;
ALTER SEQUENCE triage_pending_marks RENAME TO run_pending_marks;
ALTER TABLE run_pending ADD COLUMN kind text NOT NULL DEFAULT 'triage';
ALTER TABLE run_pending ALTER COLUMN kind DROP DEFAULT;
ALTER TABLE run_pending DROP CONSTRAINT triage_pending_pkey;
ALTER TABLE run_pending ADD PRIMARY KEY (kind, run_id);
ALTER TABLE run_pending RENAME CONSTRAINT triage_pending_run_id_fkey TO run_pending_run_id_fkey;
