-- Triage after the upload's commit (issue 34): an upload no longer fingerprints and files its
-- failures inside its own transaction; it marks its run here, and the run is triaged right after
-- the commit by the server that stored it, by the first read that needs the run's groups (a
-- gate, a dialog, a notification), or by the sweep when that server died first
-- (triage/pending.service.ts). `mark` is new for every upload that marks the run (a sequence,
-- never reused), so the server that stored an upload knows whether a later upload to the same
-- run came after it (its own failures are then not all of the run's). The row is removed in the
-- transaction that triaged the run up to that mark; the lock on the row is the work's lease:
-- a server that dies mid-way leaves it unlocked for the next.
CREATE SEQUENCE triage_pending_marks;
CREATE TABLE triage_pending (
  run_id    bigint PRIMARY KEY REFERENCES runs (id) ON DELETE CASCADE,
  mark      bigint NOT NULL DEFAULT nextval('triage_pending_marks'),
  marked_at timestamptz NOT NULL DEFAULT now()
);
