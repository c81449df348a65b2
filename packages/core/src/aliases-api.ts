import { z } from "zod";
import { TestIdInputSchema } from "./traceability-links-api.js";

/**
 * Renamed tests keep their history (issue 35): GET/POST /v1/test-aliases, POST
 * /v1/test-aliases/{id}/undo, GET /v1/test-aliases/suggestions and POST
 * /v1/test-aliases/suggestions/{id}/confirm | /dismiss. An alias says that `testId` (the old
 * test) is now `canonicalTestId`: its history, Top Fails and links follow the new test.
 */

export const ALIAS_SOURCES = ["stable_id", "suggestion", "manual"] as const;
export type AliasSource = (typeof ALIAS_SOURCES)[number];

const IdParam = z
  .string()
  .regex(/^\d{1,15}$/, "The id must be a number, e.g. 12")
  .transform(Number);

export const AliasIdParamsSchema = z.object({ id: IdParam.describe("The alias's id") });
export const SuggestionIdParamsSchema = z.object({ id: IdParam.describe("The suggestion's id") });

export const CreateAliasBodySchema = z.strictObject({
  testId: TestIdInputSchema.describe("The old test (TC{id}), whose history follows the new one"),
  canonicalTestId: TestIdInputSchema.describe("The test it is now (TC{id})"),
});
export type CreateAliasBody = z.input<typeof CreateAliasBodySchema>;

export const AliasListQuerySchema = z.strictObject({
  testId: TestIdInputSchema.optional().describe(
    "Only the aliases of this test's group: the tests it resolves to or that resolve to it",
  ),
  undone: z
    .enum(["true", "false"])
    .optional()
    .describe("true to include undone aliases (the journal); live ones only by default"),
});

const TestRefSchema = z.object({
  id: z.int(),
  title: z.string(),
  file: z.string().nullable(),
});
export type AliasTestRef = z.infer<typeof TestRefSchema>;

export const AliasSchema = z.object({
  id: z.int(),
  test: TestRefSchema.describe("The old test"),
  canonical: TestRefSchema.describe("The test it is now"),
  source: z.enum(ALIAS_SOURCES).describe("stable_id: found at ingest; suggestion; manual"),
  stableKey: z.string().nullable().describe("The report's key both tests carried (stable_id)"),
  createdBy: z.string(),
  createdAt: z.string(),
  undoneBy: z.string().nullable(),
  undoneAt: z.string().nullable().describe("When it was undone; null while it is live"),
});
export type Alias = z.infer<typeof AliasSchema>;
export const AliasListSchema = z.array(AliasSchema);

export const AliasSuggestionSchema = z.object({
  id: z.int(),
  test: TestRefSchema.describe("The test that disappeared"),
  canonical: TestRefSchema.describe("The new test with the same file and steps"),
  runKey: z.string().describe("The run in which the one left and the other came"),
  createdAt: z.string(),
  decision: z.enum(["confirmed", "dismissed"]).nullable(),
  decidedBy: z.string().nullable(),
  decidedAt: z.string().nullable(),
});
export type AliasSuggestion = z.infer<typeof AliasSuggestionSchema>;
export const AliasSuggestionListSchema = z.array(AliasSuggestionSchema);
