import { RmsImportRowSchema, SPIRA_REQUIREMENT_PREFIX, type RmsImportRow } from "@assay/core";
import type { SpiraRequirementRecord } from "./spira.client.js";

/**
 * Spira requirements as matrix rows. The key is Spira's own token, RQ:{RequirementId}, which
 * tests name in a tag (@RQ:123; catalog.rmsTagPattern `RQ:\d+`). A summary requirement (one with
 * children: a folder or an epic) is not a row: it is the epic of the requirements under it, as
 * IndentLevel (three letters a level) says. Linked bugs stay with Jira; Spira rows have none.
 */

export const spiraKey = (id: number) => `${SPIRA_REQUIREMENT_PREFIX}${id}`;

export function spiraRequirementRows(records: readonly SpiraRequirementRecord[]): RmsImportRow[] {
  const byLevel = new Map(records.map((r) => [r.IndentLevel ?? "", r]));
  const rows: RmsImportRow[] = [];
  for (const record of records) {
    if (record.Summary === true) continue;
    const level = record.IndentLevel ?? "";
    const parent = level.length > 3 ? byLevel.get(level.slice(0, -3)) : undefined;
    // The schema trims and caps the texts as an import does; Spira's words stay data.
    rows.push(
      RmsImportRowSchema.parse({
        rms: spiraKey(record.RequirementId),
        summary: String(record.Name ?? "").slice(0, 2000),
        epic: String(parent?.Name ?? "").slice(0, 200),
        type: String(record.RequirementTypeName ?? "").slice(0, 100),
        bugs: [],
      }),
    );
  }
  return rows;
}
