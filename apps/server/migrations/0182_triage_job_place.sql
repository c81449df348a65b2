-- Triage (issue 34): a run's job is its family, executor, branch and place (the site of a
-- frontend run, the environment of a backend one). Without the place, the "last runs of the
-- job" of a daily robot that runs each site's suite were mostly other sites' runs, which do not
-- run the test at all, and most known causes showed as regressions (25 of 30 in a demo run).
ALTER TABLE triage_runs ADD COLUMN place text;
UPDATE triage_runs t SET place = coalesce(r.nora_site, r.env) FROM runs r WHERE r.id = t.run_id;
DROP INDEX triage_runs_job_idx;
CREATE INDEX triage_runs_job_idx ON triage_runs (family, executor, branch, place, run_at DESC);
