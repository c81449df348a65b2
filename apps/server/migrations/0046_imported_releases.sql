-- Release versions and their incidents from a requirements file's releases section: the Releases
-- report's source for teams without Jira (issue #22). Owned by the traceability module, which owns
-- the imports; each release names the import it came from, so the report can say which file.

CREATE TABLE imported_releases (
  id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  import_id    bigint NOT NULL REFERENCES requirement_imports (id) ON DELETE CASCADE,
  version      text NOT NULL UNIQUE,
  -- null: the file did not say (then released when it has a date)
  released     boolean,
  -- as written in the file, YYYY-MM-DD (Jira's releaseDate form)
  released_at  text,
  position     integer NOT NULL
);

CREATE TABLE imported_release_incidents (
  release_id  bigint NOT NULL REFERENCES imported_releases (id) ON DELETE CASCADE,
  key         text NOT NULL,
  summary     text NOT NULL DEFAULT '',
  status      text NOT NULL,
  closed      boolean NOT NULL,
  PRIMARY KEY (release_id, key)
);
