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

/** Releases of a requirements file's releases section (migration 0046, traceability's tables). */
export interface ImportedReleasesTable {
  id: Generated<number>;
  import_id: number;
  version: string;
  released: boolean | null;
  released_at: string | null;
  position: number;
}

export interface ImportedReleaseIncidentsTable {
  release_id: number;
  key: string;
  summary: string;
  status: string;
  closed: boolean;
}
