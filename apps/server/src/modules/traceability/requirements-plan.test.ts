import { describe, expect, it } from "vitest";
import { bugSignature, planImport, type StoredRequirement } from "./requirements-plan.js";

/** The import's plan (issue 32 item 1): what the preview says and the import applies. */

const stored = (rms: string, fields: Partial<StoredRequirement> = {}): StoredRequirement => ({
  id: 1,
  rms,
  summary: `${rms} summary`,
  epic: "",
  type: "",
  note: "",
  no_test_needed: false,
  archived: false,
  bugs: "",
  links: 0,
  ...fields,
});
const row = (rms: string, fields: Record<string, unknown> = {}) => ({
  rms,
  summary: `${rms} summary`,
  epic: "",
  type: "",
  bugs: [],
  ...fields,
});

describe("planImport", () => {
  it("lists the archived requirements that carry a note, flag or links first", () => {
    const plan = planImport(
      [
        stored("RMS-1"),
        stored("RMS-2"),
        stored("RMS-3", { links: 2 }),
        stored("RMS-9", { note: "checked by hand" }),
      ],
      [],
    );
    expect(plan.archived.items.map((item) => item.rms)).toEqual([
      "RMS-3",
      "RMS-9",
      "RMS-1",
      "RMS-2",
    ]);
  });

  it("tells added, changed (with what), unchanged and restored apart", () => {
    const bug = { key: "NXL-1", summary: "hangs", status: "Open" };
    const plan = planImport(
      [
        stored("RMS-1", { bugs: bugSignature([bug]) }),
        stored("RMS-2"),
        stored("RMS-3", { archived: true, note: "kept" }),
      ],
      [
        row("rms-1", { summary: "RMS-1 summary", bugs: [bug] }),
        row("RMS-2", { type: "Story" }),
        row("RMS-3"),
        row("RMS-4"),
      ],
    );
    expect(plan.unchanged).toBe(1);
    expect(plan.changed.items).toMatchObject([{ rms: "RMS-2", changes: ["type"] }]);
    expect(plan.restored.items).toMatchObject([{ rms: "RMS-3", note: "kept" }]);
    expect(plan.added.items.map((item) => item.rms)).toEqual(["RMS-4"]);
    expect(plan.archived.count).toBe(0);
  });
});
