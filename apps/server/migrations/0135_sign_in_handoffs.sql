-- One-time codes that carry a sign-in made at ASSAY_PUBLIC_URL over to a data-harmonization host
-- (modules/handoff). Only the code's SHA-256 is kept; the provider's tokens travel AES-256-GCM
-- encrypted, bound to the code's hash, and are wiped when the code is used. A code names the one
-- host it may be used at and the browser that asked for it (the SHA-256 of a nonce in a cookie
-- of that host), lives about 60 seconds and is good once.
CREATE TABLE sign_in_handoffs (
  code_hash        bytea PRIMARY KEY,
  host             text NOT NULL,
  browser_hash     bytea NOT NULL,
  user_id          integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  -- Null once the code is used: a used code carries nothing.
  tokens_encrypted bytea,
  return_to        text NOT NULL,
  created_at       timestamptz NOT NULL DEFAULT now(),
  expires_at       timestamptz NOT NULL,
  used_at          timestamptz
);

-- Sweeping old rows at each new code.
CREATE INDEX sign_in_handoffs_created_at_idx ON sign_in_handoffs (created_at);
