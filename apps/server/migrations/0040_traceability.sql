-- The Traceability Matrix (spec sections 2 and 3): requirements (RMS items) with their linked
-- bugs, where they came from, and every edit of their note and no-automation flag.

-- One row per requirements import (a CSV/JSON file); the newest is the matrix's source.
CREATE TABLE requirement_imports (
  id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  source_kind  text NOT NULL CHECK (source_kind IN ('file')),
  file_name    text NOT NULL,
  imported_by  text NOT NULL,
  imported_at  timestamptz NOT NULL DEFAULT now(),
  requirements integer NOT NULL,
  bugs         integer NOT NULL
);

CREATE TABLE requirements (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  -- kept as written; matched to test tags upper-cased
  rms             text NOT NULL,
  summary         text NOT NULL DEFAULT '',
  epic            text NOT NULL DEFAULT '',
  type            text NOT NULL DEFAULT '',
  -- the order of the file the requirement last came from
  position        integer NOT NULL DEFAULT 0,
  note            text NOT NULL DEFAULT '',
  no_test_needed  boolean NOT NULL DEFAULT false,
  updated_by      text,
  updated_at      timestamptz
);
CREATE UNIQUE INDEX requirements_rms_idx ON requirements (upper(rms));

CREATE TABLE requirement_bugs (
  requirement_id  bigint NOT NULL REFERENCES requirements (id) ON DELETE CASCADE,
  key             text NOT NULL,
  summary         text NOT NULL DEFAULT '',
  status          text NOT NULL DEFAULT '',
  PRIMARY KEY (requirement_id, key)
);

-- Every edit of a note or the no-automation flag, with the values before and after: an auditor
-- asks who changed what and when. No foreign key, so the history outlives a removed requirement.
CREATE TABLE requirement_edits (
  id                       bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  requirement_id           bigint NOT NULL,
  rms                      text NOT NULL,
  previous_note            text NOT NULL,
  previous_no_test_needed  boolean NOT NULL,
  note                     text NOT NULL,
  no_test_needed           boolean NOT NULL,
  edited_by                text NOT NULL,
  edited_at                timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX requirement_edits_requirement_idx ON requirement_edits (requirement_id, id);
