-- Data harmonization comparison runs (modules/harmonization). A run compares one environment
-- (or, for Global, one schema across the environments of an environment type); its rows are
-- the entities or documents compared, each with the spec's fields as JSON. At most one run per
-- environment is queued or running: a second Run Report joins it.
CREATE TABLE dh_runs (
  id           bigserial PRIMARY KEY,
  platform     text NOT NULL CHECK (platform IN ('legacy', 'nextGen', 'sfdc', 'global')),
  type         text NOT NULL CHECK (type IN ('sql', 'noSql')),
  env_type     text NOT NULL CHECK (env_type IN ('dev', 'stage')),
  env          text NOT NULL,
  schema       text NOT NULL DEFAULT '',
  kind         text NOT NULL CHECK (kind IN ('global', 'fhir', 'sfdc', 'nosql', 'sql')),
  state        text NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'running', 'done', 'failed')),
  error        text,
  demo         boolean NOT NULL DEFAULT false,
  started_by   text,
  created_at   timestamptz NOT NULL DEFAULT now(),
  finished_at  timestamptz
);

CREATE UNIQUE INDEX dh_runs_one_active ON dh_runs (platform, type, env, schema)
  WHERE state IN ('queued', 'running');
CREATE INDEX dh_runs_by_environment ON dh_runs (platform, type, env, schema, id DESC);

CREATE TABLE dh_run_rows (
  run_id  bigint NOT NULL REFERENCES dh_runs (id) ON DELETE CASCADE,
  id      integer NOT NULL,
  status  text NOT NULL,
  data    jsonb NOT NULL,
  PRIMARY KEY (run_id, id)
);
