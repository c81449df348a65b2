-- Retention's roll-ups per test (issue 36): a removed day that Top Fails' two months can no
-- longer reach is counted in one row per month (day = the month's first day) instead of a row
-- per day; the row keeps the first and last day it counts, for a test's "removed from ... to".
-- Rows written before stay per day (first_day and last_day null: the day itself).
ALTER TABLE retention_test_days ADD COLUMN first_day date, ADD COLUMN last_day date;
