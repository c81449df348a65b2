import { z } from "zod";

/**
 * Tests linked to a requirement on the Traceability Matrix screen (issue #22), besides the tags
 * in reports and dynamic tags: POST /v1/traceability/rms/{id}/links, DELETE
 * /v1/traceability/rms/{id}/links/{testId}, and GET /v1/traceability/rms/{id}/links (every link,
 * removed ones included, for auditors).
 */

const TEST_ID = /^(?:TC)?(\d{1,15})$/i;
const TEST_ID_MESSAGE = "testId is a test's number, e.g. 1042 or TC1042";

/** A test id as people write it: 1042, "1042" or "TC1042". */
export const TestIdInputSchema = z.union([z.number(), z.string()]).transform((value, ctx) => {
  const match = TEST_ID.exec(String(value).trim());
  const id = match ? Number(match[1]) : Number.NaN;
  if (!Number.isSafeInteger(id) || id <= 0) {
    ctx.addIssue({ code: "custom", message: TEST_ID_MESSAGE });
    return z.NEVER;
  }
  return id;
});

export const RmsTestLinkBodySchema = z.object({
  testId: TestIdInputSchema.describe("The test to link (TC{id}): 1042 or 'TC1042'"),
});
export type RmsTestLinkBody = z.input<typeof RmsTestLinkBodySchema>;

export const RmsTestLinkParamsSchema = z.object({
  id: z
    .string()
    .regex(/^\d{1,15}$/, "The id must be a number, e.g. 12")
    .transform(Number)
    .describe("The requirement's id (rmsDetail.id)"),
  testId: z
    .string()
    .regex(TEST_ID, TEST_ID_MESSAGE)
    .transform((value) => Number(TEST_ID.exec(value)?.[1]))
    .describe("The linked test (TC{id})"),
});

/** One link made on the screen: live while removedAt is null. */
export const RmsTestLinkSchema = z.object({
  rms: z.string().describe("The requirement's key, upper-cased"),
  testId: z.int(),
  testName: z.string(),
  linkedBy: z.string().describe("Who linked it: a user's e-mail"),
  linkedAt: z.string(),
  removedBy: z.string().nullable().describe("Who removed it; null while it is live"),
  removedAt: z.string().nullable(),
});
export type RmsTestLink = z.infer<typeof RmsTestLinkSchema>;
export const RmsTestLinkListSchema = z.array(RmsTestLinkSchema);

/** On a matrix test run: the live link that made (or also makes) the test cover the row. */
export const ScreenLinkSchema = z
  .object({ linkedBy: z.string(), linkedAt: z.string() })
  .describe("Present when the test was linked on the screen (it may also be tagged)");
export type ScreenLink = z.infer<typeof ScreenLinkSchema>;
