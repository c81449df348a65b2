import {
  byteSize,
  type RetentionPass,
  type RetentionPeriods,
  type RetentionRule,
} from "@assay/core";

/** How the Setting screen says retention's periods and passes. */

export function period(days: number | null): string {
  if (days === null) return "forever";
  return days === 1 ? "1 day" : `${days.toLocaleString("en-US")} days`;
}

export const PERIOD_LABELS: [keyof RetentionPeriods, string][] = [
  ["passedDetailsDays", "Passed results' steps and attachments"],
  ["failedDetailsDays", "Failed results' steps and attachments"],
  ["runsDays", "Passed results (runs without failures go whole)"],
  ["failuresDays", "Failures and their runs"],
];

export function ruleMatch(rule: RetentionRule): string {
  const parts = [
    rule.family ? `${rule.family} runs` : "runs",
    rule.branch ? `on branch ${rule.branch}` : "",
  ];
  return parts.filter(Boolean).join(" ");
}

const count = (n: number, one: string, many: string) =>
  `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;

/** What a pass removed, in one sentence. */
export function removedText(pass: RetentionPass): string {
  const parts = [
    count(pass.runs, "whole run", "whole runs"),
    count(pass.results, "result", "results"),
    `the steps of ${count(pass.stepsTrimmed, "result", "results")}`,
    count(pass.attachments, "attachment", "attachments"),
  ];
  if (pass.partitions.length > 0)
    parts.push(count(pass.partitions.length, "monthly partition", "monthly partitions"));
  return `Removed ${parts.join(", ")}.`;
}

export const TRIGGER_LABEL: Record<RetentionPass["trigger"], string> = {
  nightly: "nightly pass",
  cli: "assay retention",
  demo: "demo data",
};

export const STATE_LABEL: Record<RetentionPass["state"], string> = {
  running: "Running",
  finished: "Finished",
  failed: "Failed",
  abandoned: "Stopped",
};

/**
 * What the pass gave back, in words that match the sizes shown: deleted rows leave space that
 * PostgreSQL reuses for the next results rather than returning it to the disk (only a dropped
 * month does that), so the database's size can even grow across a pass while uploads go on.
 */
export function freedText(pass: RetentionPass): string {
  const sizes =
    pass.databaseBytesBefore !== null && pass.databaseBytesAfter !== null
      ? ` Database ${byteSize(pass.databaseBytesBefore)} before the pass, ${byteSize(pass.databaseBytesAfter)} after.`
      : "";
  return (
    `That is about ${byteSize(pass.bytesFreed)} of rows and indexes, space PostgreSQL reuses ` +
    `for new results (a dropped month returns its disk at once).${sizes} ` +
    `${byteSize(pass.objectBytesFreed)} of object storage returned.`
  );
}
