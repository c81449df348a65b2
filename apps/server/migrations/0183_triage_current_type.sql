-- Triage (issue 34): a failed result's current defect type beside its current decision's id.
-- The Failures screen and a run's groups count the failures still "to investigate"; joining
-- every fingerprint of the period to defect_decisions for it made PostgreSQL read every decision
-- ever made into a hash (about half of a 30-day screen over 10M results: docs/performance.md,
-- "Triage"). The type is written with defect_id, by the same statements (decisions.repo.ts);
-- null, like defect_id, is "to investigate" by default. Ingest does not write it.
ALTER TABLE result_fingerprints ADD COLUMN defect_type text;
UPDATE result_fingerprints rf SET defect_type = d.type
FROM defect_decisions d WHERE d.id = rf.defect_id;
