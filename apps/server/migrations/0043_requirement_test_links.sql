-- Tests linked to a requirement on the Traceability Matrix screen (issue #22), the third way a
-- test covers a requirement besides report tags and dynamic tags. A removed link stays, with
-- who removed it and when: an auditor asks what covered a requirement on a given day, as the
-- note edits keep their history. Keyed by the requirement's key upper-cased, as tags match
-- it, so a requirement that leaves an import and comes back keeps its links.
CREATE TABLE requirement_test_links (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  rms         text NOT NULL CHECK (rms = upper(rms)),
  test_id     bigint NOT NULL REFERENCES tests (id),
  linked_by   text NOT NULL,
  linked_at   timestamptz NOT NULL DEFAULT now(),
  removed_by  text,
  removed_at  timestamptz,
  CHECK ((removed_by IS NULL) = (removed_at IS NULL))
);
-- One live link per requirement and test; the matrix reads the live ones.
CREATE UNIQUE INDEX requirement_test_links_live_idx ON requirement_test_links (rms, test_id)
  WHERE removed_at IS NULL;
-- A requirement's links with their history, newest first.
CREATE INDEX requirement_test_links_rms_idx ON requirement_test_links (rms, id);
