import type { DhReportKind, DhRow } from "@assay/core";
import type { Connector } from "./connectors/index.js";

/**
 * What a run compares, per comparison kind (spec section 5 routing): its rows as they start,
 * and for each row the work that fills it in. A task throws when its entity cannot be compared;
 * the runner marks that row Failed with the reason and goes on with the others. Made by
 * comparisons.ts (counts, global) and document-comparisons.ts (FHIR, SFDC).
 */
export type Sources = (name: string) => Promise<Connector>;
export type RowTask = (row: DhRow, sources: Sources) => Promise<DhRow>;

export interface RunPlan {
  kind: DhReportKind;
  /** The rows as they start (SFDC lists its documents first). */
  rows: (sources: Sources) => Promise<DhRow[]>;
  task: RowTask;
}
