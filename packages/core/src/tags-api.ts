import { z } from "zod";
import { TAG_NAME_MAX_LENGTH, TAG_NAME_RULE } from "./tag-rules.js";

/**
 * The Dynamic Tags API (spec section 7): GET /v1/dtag, POST /v1/dtag/, PUT
 * /v1/dtag/{id}/test/{testId}, DELETE /v1/dtag/{id}, DELETE /v1/tagged_test/{id}. Payload names
 * are the spec's (name, testId, testName; text and value); the others are camelCase.
 */

/** Longest test name kept with a tagged test. */
export const TAGGED_TEST_NAME_MAX_LENGTH = 1000;

const id = (description: string) => z.int().positive().describe(description);

/** Digits only, so "abc" or "1e3" answer 400 before any lookup. */
const idParam = (description: string) =>
  z
    .string()
    .regex(/^\d{1,15}$/, "The id must be a number, e.g. 12")
    .transform(Number)
    .describe(description);

const TAG_NAME_RULES = `Trimmed and lower-cased; 1 to ${TAG_NAME_MAX_LENGTH} characters; ${TAG_NAME_RULE}`;

// ── path parameters ──────────────────────────────────────────────────────────────────────────

export const TagIdParamsSchema = z.object({ id: idParam("The tag's id") });

export const TagTestParamsSchema = z.object({
  id: idParam("The tag's id"),
  testId: idParam("The stable test id (TC{id}) to attach the tag to"),
});

export const TaggedTestIdParamsSchema = z.object({
  id: idParam("The id of one test-in-tag link (taggedTestId in GET /v1/dtag)"),
});

// ── request bodies ───────────────────────────────────────────────────────────────────────────

const testName = z
  .string()
  .max(TAGGED_TEST_NAME_MAX_LENGTH)
  .optional()
  .describe("The test's name as shown with the tag; the catalogue title when absent or blank");

export const CreateTagBodySchema = z.object({
  name: z.string().max(1000).describe(`Tag name. ${TAG_NAME_RULES}`),
  testId: id("The stable test id (TC{id}) to tag"),
  testName,
});
export type CreateTagBody = z.infer<typeof CreateTagBodySchema>;

/** The body of PUT /v1/dtag/{id}/test/{testId}; the spec's client may send none at all. */
export const AttachTagBodySchema = z.object({ testName }).nullish();
export type AttachTagBody = NonNullable<z.infer<typeof AttachTagBodySchema>>;

// ── responses ────────────────────────────────────────────────────────────────────────────────

export const TaggedTestSchema = z.object({
  id: z.int().describe("Stable test id, shown as TC{id}"),
  name: z.string().describe("The test's name"),
  taggedTestId: z.int().describe("Id of this link, for DELETE /v1/tagged_test/{id}"),
});
export type TaggedTest = z.infer<typeof TaggedTestSchema>;

export const TagEntrySchema = z.object({
  id: z.int().describe("The tag's id"),
  tests: z.array(TaggedTestSchema).describe("Tests in the tag, by test id"),
  test_ids: z.array(z.int()).describe("The same tests' ids (the '@unstable' rule reads these)"),
});
export type TagEntry = z.infer<typeof TagEntrySchema>;

export const TagOptionSchema = z.object({
  text: z.string().describe("Tag name, lower case"),
  value: z.int().describe("The tag's id"),
});
export type TagOption = z.infer<typeof TagOptionSchema>;

/**
 * GET /v1/dtag carries both shapes the spec names: the by-tag map, keyed by tag name, and the
 * selection list of text and value. Both are sorted by tag name.
 */
export const TagListSchema = z.object({
  byTag: z
    .record(z.string(), TagEntrySchema)
    .describe("Every tag, keyed by its name, with its tests; keys in name order"),
  options: z.array(TagOptionSchema).describe("Every tag as a selection option, in name order"),
});
export type TagList = z.infer<typeof TagListSchema>;

export const TagSchema = z.object({
  id: z.int().describe("The tag's id"),
  name: z.string().describe("The tag's name, lower case"),
});

/** The answer to adding a tag to a test (POST /v1/dtag, PUT /v1/dtag/{id}/test/{testId}). */
export const TagLinkSchema = z.object({
  tag: TagSchema,
  test: TaggedTestSchema,
  tagCreated: z.boolean().describe("true: the tag did not exist and was created"),
  alreadyTagged: z
    .boolean()
    .describe("true: the test already had the tag, so nothing changed (not an error)"),
});
export type TagLink = z.infer<typeof TagLinkSchema>;

export const DeletedTagSchema = TagSchema.extend({
  testsRemoved: z.int().nonnegative().describe("Links to tests removed with the tag"),
});
export type DeletedTag = z.infer<typeof DeletedTagSchema>;

export const RestoredTagSchema = TagSchema.extend({
  testsRestored: z
    .int()
    .nonnegative()
    .describe("Tests put back in the tag (a test it holds already is not counted)"),
});
export type RestoredTag = z.infer<typeof RestoredTagSchema>;

export const DeletedTaggedTestSchema = z.object({
  id: z.int().describe("The removed link's id"),
  tagId: z.int(),
  testId: z.int(),
});
export type DeletedTaggedTest = z.infer<typeof DeletedTaggedTestSchema>;
