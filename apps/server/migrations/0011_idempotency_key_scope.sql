-- An Idempotency-Key belongs to the client that sent it (the IETF httpapi idempotency draft: look
-- keys up with the client's identity), so that one CI job's key can neither replay nor block
-- another's upload; and it is kept 24 hours, as Stripe keeps them, instead of for ever
-- (ingest.repo, IDEMPOTENCY_KEY_HOURS). Rows written before this had no client: none matches one.
ALTER TABLE idempotency_keys ADD COLUMN client text NOT NULL DEFAULT '';
ALTER TABLE idempotency_keys DROP CONSTRAINT idempotency_keys_pkey;
ALTER TABLE idempotency_keys ADD PRIMARY KEY (client, key);
CREATE INDEX idempotency_keys_created_idx ON idempotency_keys (created_at);
