import { z } from "zod";
import { RawStatusSchema } from "./results.js";
import { DefectSchema } from "./triage-api.js";

/** Triage's decision on a failed result (issue 34); null when it did not fail. */
const defect = DefectSchema.nullish().describe(
  "Triage's defect decision on a failure; null when the result did not fail",
);

/**
 * Result schemas of the read API (spec section 3, "Frontend test result" and "Backend result"),
 * re-exported by runs-api.ts. Object keys (screenshot, screenshotpath) are keys in Assay's
 * object store; the web app turns them into URLs.
 */

const timestamp = () => z.iso.datetime({ offset: true }).describe("UTC timestamp (ISO 8601)");
const nullableText = (description: string) => z.string().nullable().describe(description);

export const DerivedStatusSchema = z
  .enum(["passed", "failed", "skipped", "unstable"])
  .describe("Status the screens show: deriveStatus of @assay/core");

const ResultIdentityShape = {
  id: z.int().describe("Database id of the result"),
  test_run_key: z.string(),
  test_run_test_id: z.string().describe("Id of the result within its run (links use it)"),
  test_id: z.int().describe("Stable test id, shown as TC{id}"),
  name: z.string(),
  title: nullableText("Test title"),
  scenario: nullableText("Scenario name"),
  status: RawStatusSchema.describe("Raw status as reported"),
  passed: z.boolean().describe("The raw status is passed"),
  tags: z.array(z.string()),
  branch: nullableText("Branch of the tests"),
  start_time: timestamp().nullable(),
  end_time: timestamp().nullable(),
  duration_ms: z.number().nonnegative(),
  attempt: z.int().nonnegative().describe("0 for the first try, 1 for the first retry, ..."),
  is_final: z.boolean().describe("The last attempt of its test: the one that counts"),
  flaky: z.boolean().describe("Passed on this attempt after an earlier attempt failed"),
};

/** What deriveStatus and extractTickets make of a result: the same for every family. */
const DerivedShape = {
  derived_status: DerivedStatusSchema,
  pending_reason: z
    .string()
    .nullable()
    .describe("For skipped results: the text after '==' in the message; null otherwise"),
  tickets: z
    .array(z.string())
    .describe("Ticket keys found in the failure message, upper-cased (e.g. NXL-123)"),
};

/** One frontend result as the results dialog lists it: no script, steps or attachments. */
export const FrontendResultSchema = z.object({
  ...ResultIdentityShape,
  file: nullableText("Test file"),
  ...DerivedShape,
  error_message: nullableText("Failure message"),
  nora_site: nullableText("Site the test ran against"),
  version: nullableText("Version of the application under test"),
  chrome_version: nullableText("Browser version"),
  platform: nullableText("Operating system or device"),
  commit_hash: nullableText("Commit of the application under test"),
  executor: nullableText("Who or what ran the test"),
  screenshot: nullableText("Object key of the result's last screenshot"),
});
export type FrontendResult = z.infer<typeof FrontendResultSchema>;

/**
 * A scenario or before step. The location is one field, codeLocation: "file:line" or a line
 * number, exactly as the report gives it (the spec's "line or codeLocation").
 */
export const StepSchema = z.object({
  action: z.string().describe("What the step did"),
  passed: z.boolean().nullable().describe("true passed, false failed, null not run"),
  codeLocation: nullableText("file:line or line of the step, as the report gives it"),
  duration_ms: z.number().nullable(),
});
export type Step = z.infer<typeof StepSchema>;

export const ScreenshotSchema = z.object({
  id: z.int(),
  description: nullableText("Caption of the screenshot"),
  screenshotpath: z.string().describe("Object key of the image"),
  timestamp: timestamp().nullable().describe("When the screenshot was taken"),
  step_index: z
    .int()
    .nullable()
    .describe("Index into json_steps of the step the screenshot follows"),
  content_type: z.string().describe("e.g. image/png"),
});
export type Screenshot = z.infer<typeof ScreenshotSchema>;

/**
 * An attachment that is not an image (a log, a JSON payload, a Cucumber `attach` of text): shown
 * as text when it is text, offered as a download otherwise.
 */
export const ResultAttachmentSchema = z.object({
  id: z.int(),
  name: z.string().describe("File name, as the report gave it or as made for it"),
  description: nullableText("Caption of the attachment"),
  path: z.string().describe("Object key of its bytes (GET /v1/objects/{path})"),
  contentType: z.string().describe("e.g. text/plain"),
  size: z.int().describe("Size in bytes"),
  stepIndex: z.int().nullable().describe("Index into json_steps of the step it follows"),
});
export type ResultAttachment = z.infer<typeof ResultAttachmentSchema>;

/** One frontend result with everything the detail and print views show. */
export const FrontendResultDetailSchema = FrontendResultSchema.extend({
  description: nullableText("Test description"),
  body: nullableText("The test's script"),
  console_errors: nullableText("Browser console errors"),
  request_errors: nullableText("Failed network requests"),
  root_path: nullableText("Root folder of the test project"),
  json_steps: z.array(StepSchema).describe("Scenario steps in order"),
  json_before_steps: z.array(StepSchema).describe("Before steps (hooks, background)"),
  screenshots: z.array(ScreenshotSchema).describe("Image attachments in the order taken"),
  attachments: z
    .array(ResultAttachmentSchema)
    .describe("The other attachments (text, JSON, files) in the order recorded"),
  error_screenshot: nullableText("Object key of the last screenshot of a failed result"),
  defect,
  attempts: z
    .array(FrontendResultSchema)
    .describe("Every attempt of this test in the run, first try first (one when it ran once)"),
});
export type FrontendResultDetail = z.infer<typeof FrontendResultDetailSchema>;

export const ApiRequestSchema = z.object({
  id: z.int(),
  method: z.string(),
  url: z.string(),
  status: z.int().describe("HTTP status answered"),
  responsetime: z.number().describe("Response time in milliseconds"),
});
export type ApiRequest = z.infer<typeof ApiRequestSchema>;

export const ErrorDetailSchema = z.object({
  name: nullableText("Error class or type, e.g. AssertionError"),
  message: nullableText("Error message"),
  stack: nullableText("Stack trace"),
});

export const BackendResultSchema = z.object({
  ...ResultIdentityShape,
  baseurl: nullableText("Base URL the test called"),
  file: nullableText("Test file, relative to the repository root: source links use it"),
  ...DerivedShape,
  error_message: ErrorDetailSchema.nullable().describe("The failure; null when there is none"),
  consoleLog: nullableText("Console output of the test"),
  body: nullableText("The test's script"),
});
export type BackendResult = z.infer<typeof BackendResultSchema>;

export const BackendResultDetailSchema = BackendResultSchema.extend({
  apiRequests: z.array(ApiRequestSchema).describe("Requests the test made, in order"),
  defect,
  attempts: z
    .array(BackendResultSchema)
    .describe("Every attempt of this test in the run, first try first (one when it ran once)"),
});
export type BackendResultDetail = z.infer<typeof BackendResultDetailSchema>;
