import { z } from "zod";
import { DefectBodySchema, DefectTypeSchema } from "./triage-api.js";

/**
 * Triage by result (issue 34): a page of a run's cards looks up each failed result's group and
 * type (the run's groups answer carries counts, not its results), and the Failed Summary sets a
 * type on the failures of its tests.
 */

/** At most this many results per lookup: a page of the results dialog is 50-200. */
export const CAUSES_MAX_IDS = 500;

export const ResultCausesQuerySchema = z.object({
  ids: z
    .string()
    .regex(/^\d{1,15}(,\d{1,15})*$/, "ids must be result ids separated by commas, e.g. 12,13")
    .transform((text) => [...new Set(text.split(",").map(Number))])
    .refine((ids) => ids.length <= CAUSES_MAX_IDS, {
      message: `ids: at most ${CAUSES_MAX_IDS} results per call; ask a page at a time`,
    })
    .describe(`Result ids, comma separated (at most ${CAUSES_MAX_IDS})`),
});

export const ResultCauseSchema = z.object({
  resultId: z.number(),
  groupId: z.number().describe("Its failure group (GET /v1/runs/{key}/failure-groups)"),
  type: DefectTypeSchema,
  auto: z.boolean().describe("Taken by the analysis from a person's earlier decision"),
  comment: z.string(),
  bugs: z.array(z.string()).describe("Bug-tracker keys of the decision"),
});
export type ResultCause = z.infer<typeof ResultCauseSchema>;
export const ResultCauseListSchema = z
  .array(ResultCauseSchema)
  .describe("The failed results among the ids asked, in id order; others are left out");

/** At most this many tests in one decision from the Failed Summary (a run's failures). */
export const DEFECT_TESTS_MAX = 100_000;

export const TestsDefectBodySchema = DefectBodySchema.extend({
  tests: z
    .array(z.number().int().positive("a test id is a positive number, e.g. 1234"))
    .min(1, "tests: name at least one test id")
    .max(DEFECT_TESTS_MAX, `tests: at most ${DEFECT_TESTS_MAX} test ids`)
    .describe("Stable test ids (TC{id}) whose failures in this run take the type"),
});
export type TestsDefectBody = z.infer<typeof TestsDefectBodySchema>;
