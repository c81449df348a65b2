import type { RmsImportRow } from "@assay/core";
import { AREAS, type Area } from "./demo-vocabulary.js";

/**
 * The demo's requirements file for the Traceability Matrix: one requirement (RMS item) per
 * NextGen UI behaviour, which the demo's NextGen tests name with a tag (rmsTag), a few
 * requirements no test covers yet, and linked bugs on some. Imported at load through the same
 * import as `assay rms import`, so the screen shows a computed matrix on a fresh start.
 */

/** The requirement tag of the k-th NextGen test of an area: one requirement per action. */
export function rmsTag(area: Area, k: number): string {
  return `@RMS-${area.base + (k % area.actions.length)}`;
}

const UNCOVERED: RmsImportRow[] = [
  {
    rms: "RMS-9901",
    summary: "Audit trail: every change to a diary entry is recorded with its reason",
    epic: "Compliance",
    type: "Requirement",
    bugs: [],
  },
  {
    rms: "RMS-9902",
    summary: "Electronic signature shows the signer's printed name and meaning",
    epic: "Compliance",
    type: "Requirement",
    bugs: [{ key: "NXL-4102", summary: "Signature meaning missing in PDF", status: "Open" }],
  },
  {
    rms: "RMS-9903",
    summary: "The app supports screen readers on every patient screen",
    epic: "Accessibility",
    type: "Story",
    bugs: [],
  },
];

const BUG_STATUSES = ["Open", "In Progress", "Resolved", "Closed"] as const;

export function demoRequirements(): RmsImportRow[] {
  const covered = AREAS.nextGen.flatMap((area) =>
    area.actions.map((action, i) => {
      const n = area.base + i;
      return {
        rms: `RMS-${n}`,
        summary: `${area.feature}: ${action}`,
        epic: area.feature,
        type: i === 0 ? "Epic Requirement" : "Story",
        // Every third requirement has a bug filed against it, in various states.
        bugs:
          i % 3 === 1
            ? [
                {
                  key: `NXL-${n - 5000}`,
                  summary: `${area.feature}: ${action} fails on some devices`,
                  status: BUG_STATUSES[n % BUG_STATUSES.length] ?? "Open",
                },
              ]
            : [],
      };
    }),
  );
  return [...covered, ...UNCOVERED];
}
