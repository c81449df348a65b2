-- Find missing rows (modules/harmonization/missing-rows.ts) is kept with the run row it searched:
-- reopening the dialog shows the last result and when it was computed instead of reading both
-- data stores again; the user recomputes on request. A rerun of the report replaces the rows,
-- and their results with them.
ALTER TABLE dh_run_rows
  ADD COLUMN missing_rows    jsonb,
  ADD COLUMN missing_rows_at timestamptz;
