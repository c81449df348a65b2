import { z } from "zod";
import { ScreenLinkSchema } from "./traceability-links-api.js";

/**
 * The Traceability Matrix API (spec sections 3 and 7): GET /v1/traceability-matrix, GET
 * /v1/traceability/test-history, PUT /v1/traceability/rms/{id}, and the requirements import
 * (POST /v1/traceability/rms/import, used by `assay rms import` and the demo).
 */

export const RMS_NOTE_MAX_LENGTH = 4000;
/** Longest requirements file accepted by the import, in characters. */
export const RMS_IMPORT_MAX_CHARS = 5_000_000;

const shortText = (max: number) => z.string().trim().max(max);

/** A bug linked to a requirement (spec: "Ticket details / linked bug"). */
export const LinkedBugSchema = z.object({
  key: z.string().describe("Ticket key, e.g. NXL-88"),
  fields: z.object({
    summary: z.string(),
    status: z.object({ name: z.string() }),
  }),
});
export type LinkedBug = z.infer<typeof LinkedBugSchema>;

/**
 * One requirement of an imported file. CSV columns: rms, summary, epic, type, bugs (each bug
 * as KEY|summary|status, bugs separated by ';'). JSON: an array of these objects with `bugs`
 * as [{key, summary, status}].
 */
export const RmsImportRowSchema = z.object({
  rms: z
    .string()
    .trim()
    .min(1, "rms (the requirement's key) is required")
    .max(100)
    .regex(/^[^\s]+$/, "rms is a key without spaces, e.g. RMS-123"),
  summary: shortText(2000).default(""),
  epic: shortText(200).default(""),
  type: shortText(100).default(""),
  bugs: z
    .array(
      z.object({
        key: z.string().trim().min(1, "a linked bug needs its key").max(100),
        summary: shortText(2000).default(""),
        status: shortText(100).default(""),
      }),
    )
    .default([]),
});
export type RmsImportRow = z.infer<typeof RmsImportRowSchema>;

/**
 * A release of a requirements file's optional `releases` section (JSON form only): what the
 * Releases report shows for teams without Jira. `released` left out: released when it has a
 * `releasedAt` date.
 */
export const RmsImportReleaseSchema = z.object({
  version: z
    .string({ error: "version (the release's version name, e.g. 7.2.0) is required" })
    .trim()
    .min(1, "version (the release's version name, e.g. 7.2.0) is required")
    .max(200),
  releasedAt: z.iso.date("releasedAt is a date written YYYY-MM-DD").optional(),
  released: z.boolean({ error: "released is true or false" }).optional(),
  incidents: z
    .array(
      z.object({
        key: z
          .string({ error: "an incident needs its key, e.g. INC-12" })
          .trim()
          .min(1, "an incident needs its key, e.g. INC-12")
          .max(100),
        summary: shortText(2000).default(""),
        status: z
          .string({ error: "an incident needs its status, e.g. Open" })
          .trim()
          .min(1, "an incident needs its status, e.g. Open")
          .max(100),
        closed: z.boolean({ error: "closed is true or false (is the incident closed?)" }),
      }),
    )
    .default([]),
});
export type RmsImportRelease = z.infer<typeof RmsImportReleaseSchema>;

export const RmsImportBodySchema = z.object({
  fileName: z
    .string()
    .trim()
    .min(1)
    .max(255)
    .regex(/\.(csv|json)$/i, "fileName must end in .csv or .json")
    .describe("The file's name; its extension says how `content` is read"),
  content: z
    .string()
    .max(RMS_IMPORT_MAX_CHARS)
    .describe(
      "The file's text (UTF-8): CSV with a header row, a JSON array, or {requirements, releases}",
    ),
  dry_run: z
    .boolean({ error: "dry_run is true or false" })
    .default(false)
    .describe("true: change nothing, answer what the import would do (the preview)"),
});
export type RmsImportBody = z.infer<typeof RmsImportBodySchema>;

/** At most this many requirements are listed per kind of change; the counts are always whole. */
export const RMS_PREVIEW_LISTED = 200;

/** A requirement an import touches, with what a person wrote on it (its note and flag). */
export const RmsImportItemSchema = z.object({
  rms: z.string(),
  summary: z.string(),
  note: z.string().describe("The requirement's note (empty for a new one)"),
  noTestNeeded: z.union([z.literal(0), z.literal(1)]),
  links: z.int().describe("Tests linked to it on the matrix screen"),
  changes: z
    .array(z.enum(["summary", "epic", "type", "bugs"]))
    .describe("What the file changes (changed requirements only)"),
});
export type RmsImportItem = z.infer<typeof RmsImportItemSchema>;

const previewList = (what: string) =>
  z.object({
    count: z.int().describe(`Requirements ${what}`),
    items: z
      .array(RmsImportItemSchema)
      .describe(
        `The first ${RMS_PREVIEW_LISTED}: those with a note, flag or links first, then in key order`,
      ),
  });

/**
 * What an import does, or would do with dry_run: requirements added, changed (summary, epic,
 * type or bugs), archived (no longer in the source: kept with their note, flag, links and edit
 * history, out of the matrix) and restored (archived ones the source names again).
 */
export const RmsImportPreviewSchema = z.object({
  added: previewList("new to the matrix"),
  changed: previewList("whose summary, epic, type or bugs change"),
  archived: previewList("no longer in the source: archived with their notes, not deleted"),
  restored: previewList("archived before, back with their notes"),
  unchanged: z.int(),
});
export type RmsImportPreview = z.infer<typeof RmsImportPreviewSchema>;

export const RmsImportResultSchema = z.object({
  fileName: z.string(),
  dryRun: z.boolean().describe("true: nothing was changed, the preview says what would be"),
  importedAt: z.string().nullable().describe("ISO 8601 time of the import; null for a dry run"),
  requirements: z.int().describe("Requirements in the file (added or updated)"),
  bugs: z.int().describe("Linked bugs in the file"),
  removed: z
    .int()
    .describe("Requirements of the previous import not in this file: archived, not deleted"),
  releases: z
    .int()
    .optional()
    .describe(
      "Releases of the file's releases section; absent: no section, imported releases kept",
    ),
  preview: RmsImportPreviewSchema,
});
export type RmsImportResult = z.infer<typeof RmsImportResultSchema>;

export const TestRunStatusSchema = z.enum(["passed", "failed"]).nullable();
export type TestRunStatus = z.infer<typeof TestRunStatusSchema>;

export const RmsDetailSchema = z.object({
  id: z.int(),
  rms: z.string(),
  summary: z.string(),
  epic: z.string(),
  type: z.string(),
  note: z.string(),
  noTestNeeded: z.union([z.literal(0), z.literal(1)]),
});
export type RmsDetail = z.infer<typeof RmsDetailSchema>;

export const TraceabilityTestRunSchema = z.object({
  testId: z.int(),
  name: z.string(),
  filePath: z.string().nullable(),
  suitePath: z
    .array(z.string())
    .default([])
    .describe("The suites the test sits in, outermost first: what tells same-named tests apart"),
  status: TestRunStatusSchema.describe("The test's latest result; null when it never ran"),
  errorMessage: z.string().nullable(),
  link: ScreenLinkSchema.optional(),
});
export type TraceabilityTestRun = z.infer<typeof TraceabilityTestRunSchema>;

export const TraceabilityRowSchema = z.object({
  rmsDetail: RmsDetailSchema,
  testRuns: z.array(TraceabilityTestRunSchema),
  linkedBugs: z.array(LinkedBugSchema),
});
export type TraceabilityRow = z.infer<typeof TraceabilityRowSchema>;

export const TraceabilitySourceSchema = z
  .object({
    kind: z.enum(["file", "jira", "spira"]).describe("An imported file, or a sync from a tracker"),
    fileName: z.string().describe("The file's name, or the JQL / project a sync read"),
    importedAt: z.string(),
  })
  .nullable()
  .describe("Where the requirements came from; null when none were imported yet");

export const TraceabilityMatrixSchema = z.object({
  source: TraceabilitySourceSchema,
  rows: z.array(TraceabilityRowSchema),
});
export type TraceabilityMatrix = z.infer<typeof TraceabilityMatrixSchema>;

export const TestHistoryQuerySchema = z.object({
  testId: z
    .string()
    .regex(/^\d{1,15}$/, "testId must be a number, e.g. 1042")
    .transform(Number)
    .describe("The stable test id (TC{id})"),
});

export const TestHistoryEntrySchema = z.object({
  start_time: z.string().nullable(),
  status: z.string(),
  test_run_key: z.string(),
  test_run_test_id: z.string(),
});
export const TestHistorySchema = z.array(TestHistoryEntrySchema);
export type TestHistoryEntry = z.infer<typeof TestHistoryEntrySchema>;

export const RmsIdParamsSchema = z.object({
  id: z
    .string()
    .regex(/^\d{1,15}$/, "The id must be a number, e.g. 12")
    .transform(Number)
    .describe("The requirement's id (rmsDetail.id)"),
});

export const RmsUpdateBodySchema = z.object({
  note: z.string().max(RMS_NOTE_MAX_LENGTH),
  noTestNeeded: z.union([z.literal(0), z.literal(1), z.boolean()]).transform((v) => (v ? 1 : 0)),
});
export type RmsUpdateBody = z.input<typeof RmsUpdateBodySchema>;

/** One edit of a requirement's note or flag, with the values before it (newest first). */
export const RmsEditSchema = z.object({
  previousNote: z.string(),
  previousNoTestNeeded: z.union([z.literal(0), z.literal(1)]),
  note: z.string(),
  noTestNeeded: z.union([z.literal(0), z.literal(1)]),
  editedBy: z.string(),
  editedAt: z.string(),
});
export const RmsEditListSchema = z.array(RmsEditSchema);
export type RmsEdit = z.infer<typeof RmsEditSchema>;
