import type { Generated } from "kysely";
import type { DefaultTimestamp, Defaulted, Timestamp } from "./column-types.js";

/** The traceability matrix's requirements, their bugs, edits and tests: split from schema.ts for size. */

export interface RequirementImportsTable {
  id: Generated<number>;
  source_kind: "file" | "jira" | "spira";
  file_name: string;
  imported_by: string;
  imported_at: DefaultTimestamp;
  requirements: number;
  bugs: number;
}

export interface RequirementsTable {
  id: Generated<number>;
  rms: string;
  summary: Defaulted<string>;
  epic: Defaulted<string>;
  type: Defaulted<string>;
  position: Defaulted<number>;
  note: Defaulted<string>;
  no_test_needed: Defaulted<boolean>;
  updated_by: string | null;
  updated_at: Timestamp | null;
  /** When it left its source (migration 0095); null while it is in the matrix. */
  archived_at: Timestamp | null;
  archived_by: string | null;
}

export interface RequirementBugsTable {
  requirement_id: number;
  key: string;
  summary: Defaulted<string>;
  status: Defaulted<string>;
}

export interface RequirementEditsTable {
  id: Generated<number>;
  requirement_id: number;
  rms: string;
  previous_note: string;
  previous_no_test_needed: boolean;
  note: string;
  no_test_needed: boolean;
  edited_by: string;
  edited_at: DefaultTimestamp;
}

/** A test linked to a requirement on the matrix screen (migration 0043); removed ones are kept. */
export interface RequirementTestLinksTable {
  id: Generated<number>;
  /** The requirement's key, upper-cased. */
  rms: string;
  test_id: number;
  linked_by: string;
  linked_at: DefaultTimestamp;
  removed_by: string | null;
  removed_at: Timestamp | null;
}

export interface TraceabilityTables {
  requirement_imports: RequirementImportsTable;
  requirements: RequirementsTable;
  requirement_bugs: RequirementBugsTable;
  requirement_edits: RequirementEditsTable;
  requirement_test_links: RequirementTestLinksTable;
}
