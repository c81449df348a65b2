import { z } from "zod";
import {
  DH_ENV_TYPES,
  DH_GLOBAL_SCHEMAS,
  DH_PLATFORMS,
  DH_TYPES,
  type DhReportKind,
} from "./dh-config.js";

/** /v1/dh: data harmonization's API, with the field names of spec sections 3 and 7. */

/** Row statuses of spec section 4, per kind of comparison. */
export const DH_STATUS = {
  pending: "Pending",
  processing: "Processing..",
  loading: "Loading",
  requested: "Requested",
  success: "Success",
  done: "Done",
  countError: "Count Error",
  unequal: "Unequal Counts",
  failed: "Failed",
} as const;
export type DhStatus = (typeof DH_STATUS)[keyof typeof DH_STATUS];

/** The status a row starts in and shows while it is being counted, per comparison kind. */
export const DH_PROGRESS: Record<DhReportKind, { start: DhStatus; working: DhStatus }> = {
  sql: { start: "Pending", working: "Processing.." },
  nosql: { start: "Pending", working: "Loading" },
  fhir: { start: "Pending", working: "Requested" },
  sfdc: { start: "Pending", working: "Processing.." },
  global: { start: "Pending", working: "Processing.." },
};

export const DhPlatformSchema = z.enum(DH_PLATFORMS);
export const DhTypeSchema = z.enum(DH_TYPES);
export const DhEnvTypeSchema = z.enum(DH_ENV_TYPES);
export const DhGlobalSchemaNameSchema = z.enum(DH_GLOBAL_SCHEMAS);

export const DhEnvironmentOptionSchema = z.object({
  value: z.string(),
  alias: z.string(),
  active: z.boolean(),
  envType: DhEnvTypeSchema,
  demo: z.boolean().describe("Backed by Assay's built-in demo data, not a real data store"),
});
export type DhEnvironmentOption = z.infer<typeof DhEnvironmentOptionSchema>;

const count = z.number().int().nullable();

export const DhFileRecordSchema = z.object({
  table: z.string(),
  status: z.string(),
  jsonFile: z.object({ name: z.string().nullable(), count }),
  liteFile: z.object({ name: z.string().nullable(), count }),
  docdb: z.object({ count }),
  difference: z.number().int().nullable(),
  missingInS3: z.boolean(),
});
export type DhFileRecord = z.infer<typeof DhFileRecordSchema>;

const record = z.record(z.string(), z.unknown());

export const DhDocumentDataSchema = z.object({
  status: z.string(),
  s3Data: z.array(record),
  mySqlData: z.array(record),
  descrepancies: z.array(record),
  combinedResultData: z.array(z.object({ exist: z.boolean(), record })),
  truncated: z.boolean().describe("The document had more records than one comparison reads"),
});
export type DhDocumentData = z.infer<typeof DhDocumentDataSchema>;

export const DhTableCountSchema = z.tuple([
  z.string(),
  z.object({ mySqlCount: count, redshiftCount: count, errors: z.array(z.string()) }),
]);

/** One entity (or document) of a run; which fields are set depends on the comparison kind. */
export const DhRowSchema = z.object({
  id: z.number().int(),
  entity: z.string(),
  status: z.string(),
  error: z.string().nullable().optional(),
  sourceCount: count.optional(),
  destinationCount: count.optional(),
  difference: z.number().int().nullable().optional(),
  bucket: z.string().nullable().optional(),
  docPath: z.string().nullable().optional(),
  lastUpdated: z.string().nullable().optional(),
  fhirCount: count.optional(),
  fhirLiteCount: count.optional(),
  docdbCount: count.optional(),
  redshiftCount: count.optional(),
  jsonFHIRBuckets: z.array(z.string()).optional(),
  jsonFHIRLiteBuckets: z.array(z.string()).optional(),
  docdbCollection: z.array(z.object({ name: z.string() })).optional(),
  files: z.array(DhFileRecordSchema).optional(),
  tableCounts: z.array(DhTableCountSchema).optional(),
  data: DhDocumentDataSchema.nullable().optional(),
});
export type DhRow = z.infer<typeof DhRowSchema>;

export const DhTotalsSchema = z.object({
  pending: z.number().int(),
  loading: z.number().int(),
  success: z.number().int(),
  failed: z.number().int(),
  unequal: z.number().int(),
  total: z.number().int(),
});
export type DhTotals = z.infer<typeof DhTotalsSchema>;

/** The totals at the top of a run: Pending, Loading (any in-progress status), Success... */
export function dhTotals(rows: readonly { status: string }[]): DhTotals {
  const totals = { pending: 0, loading: 0, success: 0, failed: 0, unequal: 0, total: rows.length };
  for (const { status } of rows) {
    if (status.startsWith("Pending")) totals.pending++;
    else if (status === "Success" || status === "Done") totals.success++;
    else if (status === "Failed") totals.failed++;
    else if (status === "Unequal Counts" || status === "Count Error") totals.unequal++;
    else totals.loading++;
  }
  return totals;
}

export const DH_RUN_STATES = ["queued", "running", "done", "failed"] as const;

export const DhRunSchema = z.object({
  id: z.number().int(),
  platform: DhPlatformSchema,
  type: DhTypeSchema,
  envType: DhEnvTypeSchema,
  env: z.string().describe("The environment's value; for Global, the schema's environment type"),
  schema: DhGlobalSchemaNameSchema.nullable(),
  kind: z.enum(["global", "fhir", "sfdc", "nosql", "sql"]),
  state: z.enum(DH_RUN_STATES),
  error: z.string().nullable(),
  demo: z.boolean(),
  startedBy: z.string().nullable(),
  createdAt: z.iso.datetime({ offset: true }),
  finishedAt: z.iso.datetime({ offset: true }).nullable(),
  totals: DhTotalsSchema,
  rows: z.array(DhRowSchema),
});
export type DhRun = z.infer<typeof DhRunSchema>;

export const DhRunSummarySchema = DhRunSchema.omit({ rows: true });
export type DhRunSummary = z.infer<typeof DhRunSummarySchema>;

export const StartDhRunBodySchema = z.strictObject({
  platform: DhPlatformSchema,
  type: DhTypeSchema,
  envType: DhEnvTypeSchema,
  env: z.string().max(100).default("").describe("An environment's value; for Global, ignored"),
  schema: DhGlobalSchemaNameSchema.optional().describe("Global only: the schema to compare"),
});
export type StartDhRunBody = z.infer<typeof StartDhRunBodySchema>;

export const DhRunChangeSchema = z.object({
  entity: z.string(),
  before: z.object({ status: z.string(), difference: z.number().int().nullable() }).nullable(),
  after: z.object({ status: z.string(), difference: z.number().int().nullable() }).nullable(),
});
export const DhRunChangesSchema = z.object({
  previousRunId: z.number().int().nullable(),
  changes: z.array(DhRunChangeSchema),
});
export type DhRunChanges = z.infer<typeof DhRunChangesSchema>;

/** Find missing rows: the keys one table of a sql entity has and the other lacks. */
export const DhMissingRowsSchema = z.object({
  runId: z.number().int(),
  rowId: z.number().int(),
  entity: z.string(),
  key: z.string().describe("The key column compared"),
  source: z
    .string()
    .describe(
      "The source table, with the environment's name and its configured source's name (never a host or credential)",
    ),
  destination: z.string(),
  limit: z.number().int().describe("Keys listed at most, missing and extra together"),
  missing: z.array(z.string()).describe("Keys in the source, not in the destination, ascending"),
  extra: z.array(z.string()).describe("Keys in the destination, not in the source, ascending"),
  truncated: z.boolean().describe("More differences exist than were listed"),
  timedOut: z.boolean().describe("The search stopped at its time bound"),
  segmentQueries: z.number().int().describe("Checksum queries run on each side"),
  keysRead: z.number().int().describe("Keys read from both sides to list the differences"),
  elapsedMs: z.number().int(),
  computedAt: z
    .string()
    .describe("When the search ran (ISO 8601): the result is kept with the row until recomputed"),
});
export type DhMissingRows = z.infer<typeof DhMissingRowsSchema>;
/** A row's stored Find missing rows result; null until it is first computed. */
export const DhStoredMissingRowsSchema = z.object({ data: DhMissingRowsSchema.nullable() });

/** The spec's twelve columns of the SFDC S3 Records, My Sql Records and Discrepancies grids. */
export const SFDC_COLUMNS = [
  "trial_id",
  "lead_id",
  "account_id",
  "first_name",
  "last_name",
  "gender",
  "birth_date",
  "phone",
  "state",
  "postal_code",
  "time_zone",
  "ethnicity",
] as const;

/** Spec section 8: what the screen says when a data harmonization fetch fails. */
export const DH_FETCH_ERROR = "Unknown error while fetching data";

/** The spec's calls answer `{ data }` (spec section 7: "responses are read from data"). */
export const DhEnvironmentListSchema = z.object({ data: z.array(DhEnvironmentOptionSchema) });
export const DhRunListSchema = z.object({ data: z.array(DhRunSummarySchema) });
