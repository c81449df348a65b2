-- A test's identity is a SHA-256 digest (ingest/test-ids/test-identity.ts), so each new test went
-- into a random place of the B-tree on (family, identity): 100k new tests took ~1.2 s of the
-- COPY into a 300k catalogue with it, ~0.7 s with a hash index instead, whose entries are the
-- keys' 4-byte hash codes (14 MB against 44 MB for 400k tests). Lookups are equalities only, and
-- quicker by hash. A hash index cannot be UNIQUE; an exclusion constraint on it keeps one test
-- per identity all the same. The family is not in it: the digest has hashed the family in since
-- the first identity was made, so (family, identity) and identity are unique alike
-- (docs/performance.md, "Session 51").
DROP INDEX tests_identity_key;
ALTER TABLE tests ADD CONSTRAINT tests_identity_excl EXCLUDE USING hash (identity WITH =);
