-- Sign-in with the embedded identity provider (issue 4): accounts, failed sign-in attempts (the
-- attempt limit must hold across restarts and servers), and the provider's own state and keys.

-- Accounts. The id is the OpenID subject (sub) of the embedded provider. password_hash is a
-- self-describing scrypt string (parameters, salt, hash); NULL means no password sign-in.
-- The spira_* columns are the user's test-management credentials (profile, spec section 3); the
-- secret is AES-256-GCM encrypted with a key derived from ASSAY_SECRET_KEY.
CREATE TABLE users (
  id                      integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  email                   text NOT NULL UNIQUE CHECK (email = lower(email) AND email <> ''),
  name                    text NOT NULL,
  picture                 text,
  password_hash           text,
  is_admin                boolean NOT NULL DEFAULT false,
  disabled_at             timestamptz,
  spira_user              text,
  spira_secret_encrypted  bytea,
  created_at              timestamptz NOT NULL DEFAULT now()
);

-- One row per failed (or not yet decided) sign-in attempt, counted per email and per address
-- over a sliding window; rows older than the window are deleted.
CREATE TABLE sign_in_attempts (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  email       text NOT NULL,
  ip          text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX sign_in_attempts_email ON sign_in_attempts (email, created_at);
CREATE INDEX sign_in_attempts_ip ON sign_in_attempts (ip, created_at);
CREATE INDEX sign_in_attempts_created_at ON sign_in_attempts (created_at);

-- oidc-provider's models (sessions, interactions, grants, codes, tokens ...), one row each, as
-- its adapter interface stores them. Expired rows are never returned and are deleted in the
-- background; the extra columns are the lookups the adapter makes besides (model, id).
CREATE TABLE oidc_models (
  model        text NOT NULL,
  id           text NOT NULL,
  payload      jsonb NOT NULL,
  expires_at   timestamptz,
  uid          text,
  grant_id     text,
  user_code    text,
  consumed_at  timestamptz,
  PRIMARY KEY (model, id)
);
CREATE INDEX oidc_models_uid ON oidc_models (model, uid) WHERE uid IS NOT NULL;
CREATE INDEX oidc_models_grant_id ON oidc_models (grant_id) WHERE grant_id IS NOT NULL;
CREATE INDEX oidc_models_user_code ON oidc_models (model, user_code) WHERE user_code IS NOT NULL;
CREATE INDEX oidc_models_expires_at ON oidc_models (expires_at) WHERE expires_at IS NOT NULL;
CREATE INDEX oidc_models_account ON oidc_models ((payload ->> 'accountId'))
  WHERE payload ? 'accountId';

-- The provider's signing keys: private JWKs, AES-256-GCM encrypted with a key derived from
-- ASSAY_SECRET_KEY (bound to their kid), generated once so tokens survive restarts.
CREATE TABLE oidc_signing_keys (
  kid            text PRIMARY KEY,
  alg            text NOT NULL,
  jwk_encrypted  bytea NOT NULL,
  created_at     timestamptz NOT NULL DEFAULT now()
);
