-- A requirement that leaves its source (a file import, a Jira or Spira sync) is archived, not
-- deleted (issue 32): its note, No Automation flag, linked bugs and edit history stay on its
-- row, and its links (requirement_test_links, keyed by the key) stay too, so all come back
-- when the requirement does. The matrix reads the live ones only.
ALTER TABLE requirements
  ADD COLUMN archived_at timestamptz,
  ADD COLUMN archived_by text,
  ADD CONSTRAINT requirements_archived_check CHECK ((archived_by IS NULL) = (archived_at IS NULL));
CREATE INDEX requirements_live_idx ON requirements (position, id) WHERE archived_at IS NULL;
