-- A deleted schedule is archived, not removed (nothing a person wrote is lost by another
-- action): it leaves the Daily Run Scheduler's table and never launches again, and its row and
-- its slots' history (the builds it launched, their reruns, its webhook deliveries) are kept.
-- Until now DELETE removed the row and, by ON DELETE CASCADE, every slot of it.
ALTER TABLE settings
  ADD COLUMN archived_at timestamptz,
  ADD COLUMN archived_by text,
  ADD CONSTRAINT settings_archived_check CHECK ((archived_by IS NULL) = (archived_at IS NULL));
