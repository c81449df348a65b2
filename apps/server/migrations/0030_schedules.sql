-- Daily Run Scheduler: each setting is a schedule (issue 21). When it runs (a 5-field cron in a
-- time zone), what it launches (a build template), who changed it; and one row per slot it ran,
-- missed or was run by hand.
ALTER TABLE settings
  ADD COLUMN cron            text,
  ADD COLUMN time_zone       text NOT NULL DEFAULT 'UTC',
  ADD COLUMN template        jsonb,
  ADD COLUMN rerun_failures  boolean NOT NULL DEFAULT false,
  ADD COLUMN created_by      text,
  ADD COLUMN updated_by      text,
  -- Slots are looked for from here on: set when the schedule is made, activated or changed, so
  -- a schedule never "catches up" slots from before it existed or was switched on.
  ADD COLUMN schedule_from   timestamptz NOT NULL DEFAULT now();

-- The claim of a slot: the unique (setting_id, slot_at) makes one server, and only one, launch
-- it, however many servers tick at once.
CREATE TABLE schedule_slots (
  id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  setting_id    bigint NOT NULL REFERENCES settings (id) ON DELETE CASCADE,
  slot_at       timestamptz NOT NULL,
  kind          text NOT NULL CHECK (kind IN ('scheduled', 'manual')),
  -- null while the claiming server launches it
  outcome       text CHECK (outcome IN ('launched', 'failed', 'missed', 'unavailable')),
  message       text,
  build_id      text,
  test_run_key  text,
  claimed_by    text NOT NULL,
  claimed_at    timestamptz NOT NULL DEFAULT now(),
  UNIQUE (setting_id, slot_at)
);
-- a setting's latest slots (the table's last build, the next slot to look for)
CREATE INDEX schedule_slots_setting_idx ON schedule_slots (setting_id, slot_at DESC);
