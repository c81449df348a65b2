-- A deleted dynamic tag is kept (nothing a person wrote is lost by another action): DELETE
-- /v1/dtag/{id} moves the tag and the tests it held here, with who deleted it and when, and
-- POST /v1/dtag/{id}/restore puts them back (the Dynamic Tags screen's Undo). Its name is free
-- again meanwhile; the live tables stay as every reader of them knows them.
CREATE TABLE deleted_tags (
  id          bigint PRIMARY KEY,  -- the tag's id while it was live
  name        text NOT NULL,
  created_at  timestamptz NOT NULL,
  deleted_at  timestamptz NOT NULL DEFAULT now(),
  deleted_by  text NOT NULL,
  -- Its links when it was deleted: [{"testId": 1011, "testName": "..."}], by test id.
  tests       jsonb NOT NULL
);
