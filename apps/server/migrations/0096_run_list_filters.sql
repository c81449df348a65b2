-- The run lists' filters (issue 32): each finds its runs at 100,000 runs of a family without
-- reading the table (docs/performance.md has the figures). The family's runs in the lists'
-- order carrying every equality filter's column: the page and its count (the pager's total)
-- read this index alone (index-only), whatever the filters; the count stops past 10,000
-- (RUN_COUNT_CAP). Site (frontend), env (backend and load), branch, region and platform again
-- in front, for a value few runs have; the search (part of the name or run key, ILIKE) trigram
-- indexes. pg_trgm ships with PostgreSQL (contrib) and is a trusted extension: the database's
-- owner can create it.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX runs_family_site_idx ON runs (family, nora_site, created_at DESC, id DESC);
CREATE INDEX runs_family_env_idx ON runs (family, env, created_at DESC, id DESC);
CREATE INDEX runs_family_branch_idx ON runs (family, branch, created_at DESC, id DESC);
CREATE INDEX runs_family_filters_idx ON runs (family, created_at DESC, id DESC)
  INCLUDE (is_next_gen, is_china_region, failed, nora_site, env, branch);
CREATE INDEX runs_family_platform_idx
  ON runs (family, is_china_region, is_next_gen, created_at DESC, id DESC) INCLUDE (failed);
CREATE INDEX runs_name_trgm_idx ON runs USING gin (test_run_name gin_trgm_ops);
CREATE INDEX runs_key_trgm_idx ON runs USING gin (test_run_key gin_trgm_ops);
