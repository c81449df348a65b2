import type { DhRun } from "@assay/core";

/** RFC 4180 quoting; a leading = + - @ is prefixed so a spreadsheet never runs it as a formula. */
function cell(value: unknown): string {
  if (value === null || value === undefined) return "";
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text) && !/^-?\d/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

const line = (values: unknown[]) => values.map(cell).join(",");

/** A run as CSV: one line per entity, or per table for Global runs. */
export function runCsv(run: DhRun): string {
  if (run.kind === "global") {
    const lines = [line(["entity", "status", "table", "mySqlCount", "redshiftCount", "errors"])];
    for (const row of run.rows)
      for (const [table, c] of row.tableCounts ?? [[null, null] as const])
        lines.push(
          line([
            row.entity,
            row.status,
            table,
            c?.mySqlCount,
            c?.redshiftCount,
            c?.errors.join("; ") ?? row.error,
          ]),
        );
    return lines.join("\r\n") + "\r\n";
  }
  const columns = [
    "entity",
    "status",
    "sourceCount",
    "destinationCount",
    "difference",
    "fhirCount",
    "fhirLiteCount",
    "docdbCount",
    "redshiftCount",
    "bucket",
    "docPath",
    "lastUpdated",
    "error",
  ] as const;
  const lines = [line([...columns])];
  for (const row of run.rows) lines.push(line(columns.map((c) => row[c])));
  return lines.join("\r\n") + "\r\n";
}
