-- Triage (issue 34): its rows no longer carry foreign keys checked row by row. At ingest a 100k-
-- test upload with 10,000 distinct failures paid three referential checks per failure (group ->
-- runs, fingerprint -> runs and -> failure_groups: 0.6 s of its 1.3 s statement) and one more
-- per automatic decision (docs/performance.md, "Triage"). What the keys did is kept:
-- - a deleted run takes its fingerprints and decisions with it: runs -> triage_runs still
--   cascades, and a trigger on triage_runs removes the rest, once per run, not per row;
-- - a group's first run may be deleted: first_run_id then names no run, and every read joins
--   triage_runs (LEFT JOIN) for its key, which is null as before. Ids are never reused.
-- - groups are never deleted (only emptied all at once by the demo's TRUNCATE).
ALTER TABLE failure_groups DROP CONSTRAINT IF EXISTS failure_groups_first_run_id_fkey;
ALTER TABLE result_fingerprints DROP CONSTRAINT IF EXISTS result_fingerprints_group_id_fkey;
ALTER TABLE result_fingerprints DROP CONSTRAINT IF EXISTS result_fingerprints_run_id_fkey;
ALTER TABLE defect_decisions DROP CONSTRAINT IF EXISTS defect_decisions_run_id_fkey;

-- a run's decisions, when the run goes (an index entry costs less than a checked key)
CREATE INDEX defect_decisions_run_idx ON defect_decisions (run_id);

CREATE FUNCTION triage_forget_run() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM defect_decisions WHERE run_id = OLD.run_id;
  DELETE FROM result_fingerprints WHERE run_id = OLD.run_id;
  RETURN OLD;
END
$$;

CREATE TRIGGER triage_runs_forget AFTER DELETE ON triage_runs
  FOR EACH ROW EXECUTE FUNCTION triage_forget_run();
