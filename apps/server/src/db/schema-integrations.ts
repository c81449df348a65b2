import type { Generated } from "kysely";
import type { DefaultTimestamp, Timestamp } from "./column-types.js";

/** Tables of the Jira and Spira integrations (migration 0041): split from schema.ts for size. */

export interface JiraTicketsTable {
  key: string;
  found: boolean;
  summary: string;
  status: string;
  fetched_at: DefaultTimestamp;
}

export interface TrackerSyncsTable {
  id: Generated<number>;
  tracker: "jira" | "spira";
  state: "queued" | "running" | "succeeded" | "failed";
  requested_by: string;
  progress: string | null;
  error: string | null;
  queued_at: DefaultTimestamp;
  started_at: Timestamp | null;
  finished_at: Timestamp | null;
}
