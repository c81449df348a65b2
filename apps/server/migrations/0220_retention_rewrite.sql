-- Retention returns the disk of a month it empties only in part (issue 36): the month's kept
-- results are copied into a new table, which is swapped in for the month's partition
-- (docs/architecture.md, "Results partitions"; retention/retention.rewrite.ts).
--
-- The copy is built in a schema of its own: a pass stopped mid-copy leaves its table there, where
-- the next pass finds and drops it, and where backups (the public schema's tables) never see it.
CREATE SCHEMA retention_rewrite;

-- Writes into the month while its copy is made (a rerun into an old run): the ids they touched,
-- logged by a trigger on the partition, carried over into the copy when it is swapped in.
CREATE TABLE retention_rewrite_changes (
  partition text NOT NULL,
  result_id bigint NOT NULL
);
CREATE INDEX retention_rewrite_changes_partition_idx ON retention_rewrite_changes (partition);

CREATE FUNCTION retention_rewrite_log() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    INSERT INTO retention_rewrite_changes (partition, result_id) VALUES (TG_TABLE_NAME, OLD.id);
  END IF;
  IF TG_OP <> 'DELETE' THEN
    INSERT INTO retention_rewrite_changes (partition, result_id) VALUES (TG_TABLE_NAME, NEW.id);
  END IF;
  RETURN NULL;
END
$$;
