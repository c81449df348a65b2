-- Stop requests of builds (issue 20): a local build runs on one server, but Stop may reach any.
-- The server that receives Stop records the request here and notifies (NOTIFY assay_build_stop);
-- the server running the build ends it, and a restarted one ends a requested build instead of
-- starting it again.
ALTER TABLE builds
  ADD COLUMN stop_requested_at timestamptz,
  ADD COLUMN stop_requested_by text;

-- Remote builds' logs (CodeBuild: the CloudWatch Logs group and stream its BatchGetBuilds names),
-- read for the log tail while the build runs and copied into object storage when it ends.
ALTER TABLE builds
  ADD COLUMN remote_log jsonb;
