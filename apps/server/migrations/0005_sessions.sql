-- Browser sessions of the server-side sign-in (backend for frontend): the browser holds only a
-- signed cookie with a random id; the row is found by the id's SHA-256, so a leaked table does
-- not hand out live cookies. The provider's tokens are AES-256-GCM encrypted with a key derived
-- from the installation's secret key, bound to the row.
CREATE TABLE sessions (
  id_hash           bytea PRIMARY KEY,
  user_id           integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  tokens_encrypted  bytea NOT NULL,
  -- When the access token expires: the server refreshes it shortly before.
  access_expires_at timestamptz,
  -- Set by the one request refreshing the tokens, so concurrent requests do not all refresh.
  refreshing_until  timestamptz,
  csrf_token        text NOT NULL,
  created_at        timestamptz NOT NULL DEFAULT now(),
  last_seen_at      timestamptz NOT NULL DEFAULT now(),
  -- The absolute end (ASSAY_SESSION_MAX_HOURS after sign-in); the idle end is last_seen_at based.
  expires_at        timestamptz NOT NULL
);

-- Removing a user's sessions (disable, sign out everywhere) and sweeping expired rows.
CREATE INDEX sessions_user_id_idx ON sessions (user_id);
CREATE INDEX sessions_expires_at_idx ON sessions (expires_at);

-- Users of an external issuer are known by (issuer, subject), never by email alone, so the same
-- sub at two issuers cannot take over one account. Users of the embedded provider leave both null.
ALTER TABLE users ADD COLUMN issuer text;
ALTER TABLE users ADD COLUMN subject text;
ALTER TABLE users ADD CONSTRAINT users_issuer_subject_key UNIQUE (issuer, subject);
ALTER TABLE users ADD CONSTRAINT users_issuer_subject_both CHECK ((issuer IS NULL) = (subject IS NULL));
