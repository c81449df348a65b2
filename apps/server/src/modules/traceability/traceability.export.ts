import type { TraceabilityMatrix } from "@assay/core";

/**
 * The matrix as CSV (RFC 4180), what an auditor files: one line per requirement with its tests
 * and their latest status, its bugs, and on every line where the data came from and when it was
 * exported. A cell starting with = + - @ is prefixed with ' so a spreadsheet never runs it.
 */

const HEADER = [
  "rms",
  "summary",
  "epic",
  "type",
  "no_test_needed",
  "note",
  "tests",
  "passed",
  "failed",
  "not_run",
  "test_statuses",
  "linked_bugs",
  "source",
  "exported_at",
];

function cell(value: string | number): string {
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function matrixCsv(matrix: TraceabilityMatrix, exportedAt: Date): string {
  const source = matrix.source
    ? `${matrix.source.kind}: ${matrix.source.fileName} (${matrix.source.importedAt})`
    : "none";
  const lines = matrix.rows.map((row) => {
    const runs = row.testRuns;
    return [
      row.rmsDetail.rms,
      row.rmsDetail.summary,
      row.rmsDetail.epic,
      row.rmsDetail.type,
      row.rmsDetail.noTestNeeded,
      row.rmsDetail.note,
      runs.length,
      runs.filter((run) => run.status === "passed").length,
      runs.filter((run) => run.status === "failed").length,
      runs.filter((run) => run.status === null).length,
      runs.map((run) => `TC${run.testId}:${run.status ?? "not run"}`).join("; "),
      row.linkedBugs.map((bug) => `${bug.key} (${bug.fields.status.name})`).join("; "),
      source,
      exportedAt.toISOString(),
    ]
      .map(cell)
      .join(",");
  });
  return [HEADER.join(","), ...lines].join("\r\n") + "\r\n";
}
