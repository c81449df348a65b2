-- Objects the ingest path stores before the row that names them commits (attachments, a Locust
-- HTML report). Each key is recorded here, committed on its own, before the first byte is
-- written, and its record is deleted in the transaction that commits the referencing row. A
-- record left behind names an object whose upload never committed (the server was killed, or
-- the upload failed after storing it): the orphan sweep (modules/ingest/orphan-sweep.ts) deletes
-- such an object once its record is older than a grace period and no row refers to it.
CREATE TABLE pending_objects (
  object_key text PRIMARY KEY,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX pending_objects_created_idx ON pending_objects (created_at);
