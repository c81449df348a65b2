-- What happens after a schedule's build ends (issue 21): the automatic rerun of its failures,
-- folded into the same run, and the webhook that receives the run's summary.
ALTER TABLE settings
  ADD COLUMN webhook_url     text,
  ADD COLUMN webhook_format  text CHECK (webhook_format IN ('slack', 'json'));

ALTER TABLE schedule_slots
  -- the rerun of the first build's failures (null: none launched, rerun_message says why)
  ADD COLUMN rerun_build_id  text,
  ADD COLUMN rerun_message   text,
  -- the webhook delivery of the run's summary: pending (queued or retrying), delivered, failed,
  -- or null while the run has not ended or the schedule names no webhook
  ADD COLUMN notify_state    text CHECK (notify_state IN ('pending', 'delivered', 'failed')),
  ADD COLUMN notify_attempts integer NOT NULL DEFAULT 0,
  ADD COLUMN notify_message  text,
  ADD COLUMN followed_up     boolean NOT NULL DEFAULT false;

-- a build's end finds its slot: the first build, or the rerun
CREATE INDEX schedule_slots_build_idx ON schedule_slots (build_id) WHERE build_id IS NOT NULL;
CREATE INDEX schedule_slots_rerun_build_idx ON schedule_slots (rerun_build_id)
  WHERE rerun_build_id IS NOT NULL;
