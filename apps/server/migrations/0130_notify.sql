-- Notifications when a run ends (issue 38): rules, and an outbox that delivers each run once per
-- rule. Secrets (webhook URL, SMTP password) are sealed with the installation's key (secret-box),
-- bound to the rule's id.
CREATE TABLE notify_rules (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name        text NOT NULL,
  channel     text NOT NULL CHECK (channel IN ('slack', 'teams', 'email', 'webhook')),
  when_to     text NOT NULL CHECK (when_to IN ('always', 'failure', 'recovery', 'new_failures')),
  filters     jsonb NOT NULL DEFAULT '{}',
  email       jsonb,
  target      text,
  secret      bytea,
  is_active   boolean NOT NULL DEFAULT true,
  source      text NOT NULL DEFAULT 'screen' CHECK (source IN ('screen', 'config')),
  archived_at timestamptz,
  updated_by  text,
  updated_at  timestamptz NOT NULL DEFAULT now()
);
-- A rule from assay.config.yaml is found again by its name at each start.
CREATE UNIQUE INDEX notify_rules_config_name_idx ON notify_rules (name) WHERE source = 'config';

CREATE TABLE notify_outbox (
  id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  rule_id    bigint NOT NULL REFERENCES notify_rules (id),
  run_id     bigint NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
  state      text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'sent', 'failed', 'skipped')),
  attempts   integer NOT NULL DEFAULT 0,
  next_at    timestamptz NOT NULL DEFAULT now(),
  message    text,
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (rule_id, run_id)
);
-- The worker's sweep: due pending deliveries.
CREATE INDEX notify_outbox_due_idx ON notify_outbox (next_at) WHERE state = 'pending';
-- A rule's latest deliveries on the Setting screen.
CREATE INDEX notify_outbox_rule_idx ON notify_outbox (rule_id, id DESC);
