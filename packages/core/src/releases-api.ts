import { z } from "zod";

/**
 * The Nora Releases report (spec §2 "Nora Releases", §3 "Release lists", §7 GET /releaseDetail,
 * Assay's GET /v1/release-detail): one row per release version with its OQ test runs and its
 * incidents, and where each figure came from. The view filters are here so the server's `view`
 * parameter and the screen's select can never disagree.
 */

/** Spec §2 filters, in the select's order; `major` is the default. */
export const RELEASE_VIEWS = ["major", "all", "withOq", "withIn"] as const;
export type ReleaseView = (typeof RELEASE_VIEWS)[number];
export const DEFAULT_RELEASE_VIEW: ReleaseView = "major";

export const RELEASE_VIEW_LABELS: Record<ReleaseView, string> = {
  major: "Major Releases",
  all: "All Releases",
  withOq: "Release with OQs",
  withIn: "Release with Incidents",
};

export const ReleaseReportRowSchema = z.object({
  releaseVersion: z.string(),
  totalOQ: z.int().describe("OQ test runs of this release (OQ builds started in Assay)"),
  incidentCount: z.int().describe("Issues the incident JQL selects with this fixVersion"),
  incidentClose: z.int().describe("Of those, in Jira's Done status category"),
  incidentOpen: z.int().describe("Of those, not done"),
  releaseNotesUrl: z
    .string()
    .nullable()
    .describe("The release notes, from ASSAY_RELEASE_NOTES_URL; null when it is not set"),
  released: z.boolean().nullable().describe("Jira's released flag; null: not a Jira version"),
  releaseDate: z.string().nullable().describe("yyyy-mm-dd, when Jira has one"),
});
export type ReleaseReportRow = z.infer<typeof ReleaseReportRowSchema>;

/** Where a figure came from: a tracker (real or the demo's fake), or Assay's own OQ builds. */
export const ReleaseSourceSchema = z.object({
  kind: z.enum(["jira", "spira", "builds", "file"]),
  /** The built-in fake the demo starts, not a real tracker. */
  demo: z.boolean(),
  /** For a person: which project, which query, which records. */
  detail: z.string(),
});
export type ReleaseSource = z.infer<typeof ReleaseSourceSchema>;

export const ReleaseReportSchema = z.object({
  rows: z.array(ReleaseReportRowSchema).describe("Oldest version first"),
  view: z.enum(RELEASE_VIEWS),
  sources: z.object({
    releaseVersions: z.array(ReleaseSourceSchema),
    totalOQ: z.array(ReleaseSourceSchema),
    incidents: z.array(ReleaseSourceSchema),
  }),
  /** Figures that could not be counted fully, and why (e.g. Spira down: its release ids). */
  notes: z.array(z.string()),
  releaseNotesConfigured: z.boolean(),
  generatedAt: z.string(),
});
export type ReleaseReport = z.infer<typeof ReleaseReportSchema>;

export const ReleaseReportQuerySchema = z.object({
  view: z
    .enum(RELEASE_VIEWS, { error: `view must be one of ${RELEASE_VIEWS.join(", ")}` })
    .default("all")
    .describe("major: version contains '.0'; withOq: totalOQ not 0; withIn: incidentCount not 0"),
});

/** Spec §2: major = the version contains '.0'; withOq = totalOQ not 0; withIn = incidentCount not 0. */
export function releaseInView(row: ReleaseReportRow, view: ReleaseView): boolean {
  switch (view) {
    case "major":
      return row.releaseVersion.includes(".0");
    case "withOq":
      return row.totalOQ !== 0;
    case "withIn":
      return row.incidentCount !== 0;
    default:
      return true;
  }
}

export function releasesInView(
  rows: readonly ReleaseReportRow[],
  view: ReleaseView,
): ReleaseReportRow[] {
  return rows.filter((row) => releaseInView(row, view));
}

/** Versions in release order: 7.2.0 before 7.10.0 (numeric parts compared as numbers). */
export function compareVersions(a: string, b: string): number {
  return a.localeCompare(b, "en", { numeric: true });
}
