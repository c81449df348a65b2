-- A test without an id in its report is recognised by its identity (family + file + suite path +
-- name, hashed). The identity moves from its own table onto the tests row: registering a new
-- test is then one insert into one table, not two plus a foreign-key check per row (100k new
-- tests: about 0.5 s less PostgreSQL CPU; docs/performance.md). Tests whose report gives their
-- id have no identity (NULL, as many as there are).
ALTER TABLE tests ADD COLUMN identity text COLLATE "C";

-- Each key was made with its own tests row, in the same statement and family.
UPDATE tests t SET identity = k.identity
FROM test_keys k
WHERE k.test_id = t.id AND k.family = t.family;

CREATE UNIQUE INDEX tests_identity_key ON tests (family, identity);

DROP TABLE test_keys;
