-- Renamed tests keep their history (issue 35): an alias says that an old test is now another
-- one. Reads resolve through the aliases (test_alias_canonical) rather than moving results to
-- the new test id: results may hold tens of millions of rows in monthly partitions, and a move
-- would rewrite them and need its own undo journal; the alias rows are the journal
-- (docs/aliases.md). The aliases module owns these tables.

-- One row per alias ever made. Live while undone_at is null; an undone one stays with who undid
-- it and when, as requirement links do.
CREATE TABLE test_aliases (
  id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  test_id        bigint NOT NULL REFERENCES tests (id),
  canonical_id   bigint NOT NULL REFERENCES tests (id),
  source         text NOT NULL CHECK (source IN ('stable_id', 'suggestion', 'manual')),
  -- source stable_id: the report's key that both tests carried, e.g. 'historyId:3f2a...'
  stable_key     text,
  suggestion_id  bigint,
  created_by     text NOT NULL,
  created_at     timestamptz NOT NULL DEFAULT now(),
  undone_by      text,
  undone_at      timestamptz,
  CHECK (test_id <> canonical_id),
  CHECK ((undone_by IS NULL) = (undone_at IS NULL))
);
-- A test is an alias of one test at a time.
CREATE UNIQUE INDEX test_aliases_live_idx ON test_aliases (test_id) WHERE undone_at IS NULL;
CREATE INDEX test_aliases_canonical_idx ON test_aliases (canonical_id) WHERE undone_at IS NULL;

-- Every aliased test and the test it resolves to through chains (A renamed to B, B to C: A and B
-- resolve to C). The service refuses cycles; the depth bound only keeps a bad row from looping.
-- Small (one row per rename), so resolving it whole for each read costs little.
CREATE VIEW test_alias_canonical AS
WITH RECURSIVE chain (test_id, canonical_id, depth) AS (
  SELECT test_id, canonical_id, 1 FROM test_aliases WHERE undone_at IS NULL
  UNION ALL
  SELECT c.test_id, a.canonical_id, c.depth + 1
  FROM chain c JOIN test_aliases a ON a.test_id = c.canonical_id AND a.undone_at IS NULL
  WHERE c.depth < 32
)
SELECT DISTINCT ON (test_id) test_id, canonical_id FROM chain ORDER BY test_id, depth DESC;

-- A report's stable key of a test (Allure's ALLURE_ID or historyId, a JUnit id property), as first
-- seen at ingest: when a new test arrives with a key known under another test, that test was
-- renamed, and the alias is made at once.
CREATE TABLE test_stable_keys (
  family      text NOT NULL,
  stable_key  text NOT NULL,
  test_id     bigint NOT NULL REFERENCES tests (id),
  PRIMARY KEY (family, stable_key)
);

-- Suggested renames: in one run a test of the previous run of the same job is gone and a new
-- test has the same file and steps. Confirmed (an alias is made), dismissed, or open.
CREATE TABLE test_alias_suggestions (
  id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  test_id       bigint NOT NULL REFERENCES tests (id),
  canonical_id  bigint NOT NULL REFERENCES tests (id),
  run_id        bigint NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
  created_at    timestamptz NOT NULL DEFAULT now(),
  decision      text CHECK (decision IN ('confirmed', 'dismissed')),
  decided_by    text,
  decided_at    timestamptz,
  UNIQUE (test_id, canonical_id)
);
CREATE INDEX test_alias_suggestions_open_idx ON test_alias_suggestions (id) WHERE decision IS NULL;
