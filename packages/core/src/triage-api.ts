import { z } from "zod";

/**
 * The triage API (issue 34; names fixed, other tools call them): a run's failure groups,
 * failure groups over a period, one group, defect decisions on a result or a group in a run,
 * and the quality gate. Field names are camelCase (the spec names none).
 */

export const DEFECT_TYPES = [
  { value: "to_investigate", label: "To investigate" },
  { value: "product_bug", label: "Product bug" },
  { value: "automation_bug", label: "Automation bug" },
  { value: "system_issue", label: "System issue" },
  { value: "no_defect", label: "No defect" },
] as const;
export type DefectType = (typeof DEFECT_TYPES)[number]["value"];
const DEFECT_VALUES = DEFECT_TYPES.map((type) => type.value) as [DefectType, ...DefectType[]];

/** The last runs of one job a group must be absent from, to be a regression when it is back. */
export const REGRESSION_WINDOW = 3;
/** How far back the analysis looks for a person's decision. */
export const ANALYSIS_DAYS = 90;
/** The Failures screen's default period. */
export const FAILURES_DEFAULT_DAYS = 7;

export const DefectTypeSchema = z
  .enum(DEFECT_VALUES, {
    error: `type must be one of ${DEFECT_VALUES.join(", ")}`,
  })
  .describe(
    "Defect type: to_investigate (the default), product_bug, automation_bug, system_issue, no_defect",
  );

const idParam = (description: string) =>
  z
    .string()
    .regex(/^\d{1,15}$/, "The id must be a number, e.g. 12")
    .transform(Number)
    .describe(description);

export const EvidenceSchema = z
  .object({
    resultId: z.number().describe("The earlier result a person classified"),
    runKey: z.string().nullable().describe("Its run"),
    decidedBy: z.string().nullable().describe("Who classified it"),
    decidedAt: z.string().describe("When (UTC)"),
    similarity: z
      .number()
      .describe("1 for the same fingerprint; else pg_trgm similarity of the messages"),
    sameTest: z.boolean().describe("The earlier result is of the same test"),
  })
  .describe("Why an automatic decision was taken");
export type Evidence = z.infer<typeof EvidenceSchema>;

export const DefectSchema = z
  .object({
    type: DefectTypeSchema,
    auto: z.boolean().describe("Taken by the analysis from a person's earlier decision"),
    comment: z.string(),
    bugs: z.array(z.string()).describe("Bug-tracker keys, e.g. NXL-123"),
    decidedBy: z.string().nullable().describe("Who decided; null for automatic and default ones"),
    decidedAt: z.string().nullable().describe("When (UTC); null for the default"),
    evidence: EvidenceSchema.nullable(),
  })
  .describe("A failed result's defect decision");
export type Defect = z.infer<typeof DefectSchema>;

/** The decision of a failure nobody has classified. */
export const DEFAULT_DEFECT: Defect = {
  type: "to_investigate",
  auto: false,
  comment: "",
  bugs: [],
  decidedBy: null,
  decidedAt: null,
  evidence: null,
};

const FirstSeenSchema = z.object({
  runKey: z.string().nullable().describe("The run it was first seen in (null if deleted)"),
  at: z.string().describe("When (UTC)"),
});

export const RunFailureGroupSchema = z.object({
  id: z.number().describe("The failure group's id"),
  fingerprint: z.string().describe("16 hex digits: type + normalised message + top own frame"),
  errorType: z.string(),
  message: z.string().describe("The normalised message"),
  frame: z.string().nullable().describe("Top frame of the project's own code"),
  count: z.number().describe("This run's failed results in the group"),
  toInvestigate: z.number().describe("Of them, still to investigate"),
  tests: z.array(z.number()).describe("Stable test ids (TC{id})"),
  isNew: z.boolean().describe("First seen in this run"),
  isRegression: z
    .boolean()
    .describe(
      `Seen before, absent from the last ${REGRESSION_WINDOW} runs of the same job, back now`,
    ),
  firstSeen: FirstSeenSchema,
  defect: DefectSchema.describe("The newest decision among the group's results in this run"),
});
export type RunFailureGroup = z.infer<typeof RunFailureGroupSchema>;
export const RunFailureGroupListSchema = z.array(RunFailureGroupSchema);

export const TriageRunParamsSchema = z.object({
  key: z.string().min(1).max(200).describe("The run's key"),
});
export const RunGroupParamsSchema = TriageRunParamsSchema.extend({
  id: idParam("The failure group's id"),
});
export const GroupIdParamsSchema = z.object({ id: idParam("The failure group's id") });
export const ResultIdParamsSchema = z.object({ id: idParam("The result's id") });

const text = (description: string) => z.string().trim().max(200).optional().describe(description);

export const FailureGroupsQuerySchema = z.object({
  since: z
    .string()
    .regex(
      /^\d{4}-\d{2}-\d{2}(T[\d:.]+Z)?$/,
      "since must be a UTC date like 2026-11-21 or an ISO time",
    )
    .optional()
    .describe(`From when (UTC); ${FAILURES_DEFAULT_DAYS} days ago when absent`),
  family: z
    .enum(["frontend", "backend"], { error: "family must be frontend or backend" })
    .optional(),
  platform: text("Only results on this platform"),
  branch: text("Only results of this branch"),
  site: text("Only results of this site (nora_site)"),
});
export type FailureGroupsQuery = z.infer<typeof FailureGroupsQuerySchema>;

export const TrendPointSchema = z.object({ day: z.string(), count: z.number() });

export const FailureGroupSummarySchema = z.object({
  id: z.number(),
  fingerprint: z.string(),
  errorType: z.string(),
  message: z.string(),
  count: z.number().describe("Occurrences in the period"),
  runs: z.number().describe("Runs in the period"),
  tests: z.number().describe("Tests in the period"),
  firstSeen: FirstSeenSchema,
  lastSeenAt: z.string(),
  trend: z.array(TrendPointSchema).describe("Occurrences per UTC day over the last 30 days"),
  toInvestigate: z.number().describe("Occurrences in the period still to investigate"),
});
export type FailureGroupSummary = z.infer<typeof FailureGroupSummarySchema>;
export const FailureGroupListSchema = z.object({
  since: z.string(),
  groups: z.array(FailureGroupSummarySchema),
});
export type FailureGroupList = z.infer<typeof FailureGroupListSchema>;

export const FailureGroupDetailSchema = z.object({
  id: z.number(),
  fingerprint: z.string(),
  errorType: z.string(),
  message: z.string(),
  frame: z.string().nullable(),
  sampleMessage: z.string().nullable().describe("One occurrence as the reporter wrote it"),
  sampleStack: z.string().nullable(),
  firstSeen: FirstSeenSchema,
  lastSeenAt: z.string(),
  count: z.number(),
  trend: z.array(TrendPointSchema),
  tests: z.array(z.object({ testId: z.number(), count: z.number(), lastSeenAt: z.string() })),
  runs: z.array(
    z.object({ runKey: z.string(), family: z.string(), at: z.string(), count: z.number() }),
  ),
  defects: z.array(z.object({ type: DefectTypeSchema, count: z.number() })),
});
export type FailureGroupDetail = z.infer<typeof FailureGroupDetailSchema>;

export const BUG_KEY_MAX = 40;
export const DefectBodySchema = z.strictObject({
  type: DefectTypeSchema,
  comment: z.string().max(2000, "comment must be at most 2000 characters").default(""),
  bugs: z
    .array(
      z
        .string()
        .trim()
        .min(1, "a bug key may not be empty")
        .max(BUG_KEY_MAX, `a bug key is at most ${BUG_KEY_MAX} characters`),
    )
    .max(20, "at most 20 bug keys")
    .default([]),
});
export type DefectBody = z.infer<typeof DefectBodySchema>;

export const DefectAnswerSchema = z.object({
  updated: z.number().describe("Results whose decision this recorded"),
  defect: DefectSchema,
});

const limit = (name: string) =>
  z
    .string()
    .regex(/^\d{1,9}$/, `${name} must be a whole number, e.g. 0`)
    .transform(Number)
    .optional()
    .describe(`Fail when more than this many; no limit when absent`);

export const GateQuerySchema = z.object({
  max_new: limit("max_new"),
  max_to_investigate: limit("max_to_investigate"),
  max_failed: limit("max_failed"),
});
export type GateQuery = z.infer<typeof GateQuerySchema>;

export const GateAnswerSchema = z.object({
  passed: z.boolean(),
  reasons: z.array(z.string()).describe("One line per limit, passed or not"),
  counts: z.object({
    failed: z.number(),
    newFailures: z.number(),
    toInvestigate: z.number(),
  }),
  runState: z.enum(["open", "finished"]).describe("An open run may still get results"),
});
export type GateAnswer = z.infer<typeof GateAnswerSchema>;

/** The quality gate's rule: each limit given is checked; the reasons say each one's figures. */
export function evaluateGate(
  counts: GateAnswer["counts"],
  limits: GateQuery,
): { passed: boolean; reasons: string[] } {
  const checks: [number | undefined, number, string][] = [
    [limits.max_new, counts.newFailures, "new failures (first seen in this run)"],
    [limits.max_to_investigate, counts.toInvestigate, "failures to investigate"],
    [limits.max_failed, counts.failed, "failed tests"],
  ];
  const reasons: string[] = [];
  let passed = true;
  for (const [max, actual, what] of checks) {
    if (max === undefined) continue;
    const ok = actual <= max;
    if (!ok) passed = false;
    reasons.push(`${ok ? "ok" : "FAILED"}: ${actual} ${what}, at most ${max} allowed`);
  }
  if (reasons.length === 0) reasons.push("ok: no limit given");
  return { passed, reasons };
}
