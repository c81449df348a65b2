import { z } from "zod";

/**
 * The run diff API (issue 35; names fixed, CI jobs call it): what changed from run `a` to run
 * `b` of one family, test by test. Field names are camelCase (the spec names none).
 */

const runKey = (description: string) => z.string().min(1).max(200).describe(description);

export const RunDiffParamsSchema = z.object({
  a: runKey("The earlier run's test_run_key (the base)"),
  b: runKey("The later run's test_run_key (compared with the base)"),
});

export const DiffTestSchema = z.object({
  testId: z.number().describe("Stable test id, shown as TC{id}"),
  name: z.string().describe("The test's name in the later run (the earlier one's if removed)"),
  testRunTestId: z
    .string()
    .describe("The result's id in the run it is linked from (b, or a for a removed test)"),
});
export type DiffTest = z.infer<typeof DiffTestSchema>;

export const SlowerTestSchema = DiffTestSchema.extend({
  durationA: z.number().describe("Duration in run a, milliseconds"),
  durationB: z.number().describe("Duration in run b, milliseconds"),
});
export type SlowerTest = z.infer<typeof SlowerTestSchema>;

export const DiffRunSchema = z.object({
  key: z.string(),
  name: z.string(),
  family: z.enum(["frontend", "backend", "load"]),
  createdAt: z.string().describe("When the run was stored (UTC)"),
  total: z.int().describe("Tests in the run (final results)"),
});
export type DiffRun = z.infer<typeof DiffRunSchema>;

const list = (description: string) => z.array(DiffTestSchema).describe(description);

export const RunDiffSchema = z.object({
  a: DiffRunSchema,
  b: DiffRunSchema,
  slowerThan: z
    .object({ percent: z.number(), ms: z.number() })
    .describe("A test is slower when b took more than both this share and this time longer"),
  newFailures: list("Failed in b, and passed, was skipped or did not exist in a"),
  fixed: list("Failed in a, passed in b"),
  stillFailing: list("Failed in both runs"),
  newlyFlaky: list("Flaky in b (passed on a retry), not flaky in a"),
  slower: z.array(SlowerTestSchema).describe("Passed in both runs, slower in b; slowest first"),
  added: list("In b, not in a"),
  removed: list("In a, not in b"),
});
export type RunDiff = z.infer<typeof RunDiffSchema>;

export const RunDiffSectionKeys = [
  "newFailures",
  "fixed",
  "stillFailing",
  "newlyFlaky",
  "slower",
  "added",
  "removed",
] as const;
export type RunDiffSection = (typeof RunDiffSectionKeys)[number];

export const PreviousRunParamsSchema = z.object({ key: runKey("The run's test_run_key") });

export const PreviousRunSchema = z.object({
  previous: DiffRunSchema.nullable().describe(
    "The latest earlier run of the same job (family, executor, branch, site or environment, " +
      "platform); null when there is none",
  ),
});
export type PreviousRun = z.infer<typeof PreviousRunSchema>;
