-- Triage (issue 34): the trigram index on failure_groups.message is dropped. The analysis from
-- past decisions compares a run's groups with the few groups people decided on in 90 days by
-- similarity() directly (decisions.repo.ts), which no index serves; keeping the GIN index cost
-- every new group its trigrams at ingest: most of the failure_groups insert of a 100k-test
-- upload (docs/performance.md, "Triage"). pg_trgm stays: similarity() is its.
DROP INDEX IF EXISTS failure_groups_message_trgm_idx;
