-- 0191 made results a partitioned table with `LIKE ... INCLUDING CONSTRAINTS`, which copies
-- CHECK constraints but no foreign keys: results lost results.run_id -> runs ON DELETE CASCADE
-- (and results.test_id -> tests, never deleted), and attachments lost their cascade from
-- results. A deleted run still takes its results and their attachments with it, as it did
-- before 0191: a trigger once per deleted run, not a key checked on each of the 100,000 rows
-- an upload writes (the same choice as triage's 0181). Retention removes a run's results and
-- attachments itself before the run (their objects first), so there this finds nothing left.
CREATE FUNCTION results_forget_run() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM attachments WHERE result_id IN (SELECT id FROM results WHERE run_id = OLD.id);
  DELETE FROM results WHERE run_id = OLD.id;
  RETURN OLD;
END
$$;

CREATE TRIGGER runs_forget_results AFTER DELETE ON runs
  FOR EACH ROW EXECUTE FUNCTION results_forget_run();
