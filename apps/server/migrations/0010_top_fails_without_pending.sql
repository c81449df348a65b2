-- Top Fails counts failures, and a failure whose message holds 'Pending reason' is shown as
-- skipped, not failed (spec §4; deriveStatus in packages/core): those were counted as failures
-- of their test. The condition joins the index's predicate, so that the count (history.repo
-- listTopFails, which states the same condition) still reads this index alone.
DROP INDEX results_failed_time_idx;
CREATE INDEX results_failed_time_idx ON results (start_time, test_id)
  WHERE is_final AND status = 'failed'
    AND (error_message IS NULL OR error_message NOT LIKE '%Pending reason%');
