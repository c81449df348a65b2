-- Jira and Spira (issue #22): the ticket details cache, the requirements syncs, and syncs as a
-- source of the Traceability Matrix's requirements besides imported files.

-- Ticket details looked up in Jira, served from here until fetched_at + the TTL
-- (ASSAY_TICKET_CACHE_MINUTES), so a run's distinct tickets cost one round trip. A key Jira does
-- not know is kept with found = false, so it is not asked again on every page view.
CREATE TABLE jira_tickets (
  key         text PRIMARY KEY,
  found       boolean NOT NULL,
  summary     text NOT NULL DEFAULT '',
  status      text NOT NULL DEFAULT '',
  fetched_at  timestamptz NOT NULL DEFAULT now()
);

-- One row per requirements sync (scheduled or asked for on the screen); a failed one keeps the
-- requirements of the last good one and says why here.
CREATE TABLE tracker_syncs (
  id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tracker       text NOT NULL CHECK (tracker IN ('jira', 'spira')),
  state         text NOT NULL CHECK (state IN ('queued', 'running', 'succeeded', 'failed')),
  requested_by  text NOT NULL,
  progress      text,
  error         text,
  queued_at     timestamptz NOT NULL DEFAULT now(),
  started_at    timestamptz,
  finished_at   timestamptz
);
CREATE INDEX tracker_syncs_tracker_idx ON tracker_syncs (tracker, id DESC);

ALTER TABLE requirement_imports DROP CONSTRAINT requirement_imports_source_kind_check;
ALTER TABLE requirement_imports
  ADD CONSTRAINT requirement_imports_source_kind_check CHECK (source_kind IN ('file', 'jira', 'spira'));
