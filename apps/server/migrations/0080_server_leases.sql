-- Jobs that survive servers (issue 31). Each server process registers here and renews its lease
-- every few seconds, by the database's clock (now()), so servers whose clocks differ still agree
-- on whose lease has expired. A long job (a local build, a data-harmonization run, a claimed
-- schedule slot) names the server process that owns it; only a job whose owner's lease expired
-- is taken over by another server.
CREATE TABLE servers (
  id            text PRIMARY KEY,
  host          text NOT NULL,
  pid           integer NOT NULL,
  -- the data folder: a restart on the same host and folder recognises its own previous process
  data_dir      text NOT NULL,
  started_at    timestamptz NOT NULL DEFAULT now(),
  heartbeat_at  timestamptz NOT NULL DEFAULT now(),
  lease_until   timestamptz NOT NULL,
  -- set when the server stopped cleanly or another server found its lease expired
  ended_at      timestamptz
);
CREATE INDEX servers_lease_idx ON servers (lease_until DESC);

-- A build's history: queued, started by server X, attempt 2 after its owner was lost, stop asked
-- by Y, finished. status_message stays the latest event's words.
CREATE TABLE build_events (
  id        bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  build_id  bigint NOT NULL REFERENCES builds (id) ON DELETE CASCADE,
  at        timestamptz NOT NULL DEFAULT now(),
  kind      text NOT NULL CHECK (kind IN ('queued', 'started', 'waiting', 'taken_over', 'stop_requested', 'finished')),
  server_id text,
  message   text NOT NULL
);
CREATE INDEX build_events_build_idx ON build_events (build_id, id);

-- The build's own tries: 1 for its first start, one more each time a server takes it over.
ALTER TABLE builds ADD COLUMN tries integer NOT NULL DEFAULT 0;

-- The server process running a data-harmonization run (its lease says whether it still does).
ALTER TABLE dh_runs ADD COLUMN owner_server text;
CREATE INDEX dh_runs_active_owner_idx ON dh_runs (owner_server) WHERE state IN ('queued', 'running');

-- Slots claimed but not yet launched, for the takeover of a claimer that died in between.
CREATE INDEX schedule_slots_unlaunched_idx ON schedule_slots (claimed_at) WHERE outcome IS NULL;
