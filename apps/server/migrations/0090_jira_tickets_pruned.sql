-- Issue 33: jira_tickets is pruned of entries older than the cache's TTL (found or not), so
-- lookups of made-up keys cannot grow it without bound; the prune reads this index.
CREATE INDEX jira_tickets_fetched_at ON jira_tickets (fetched_at);
