import { z } from "zod";
import { jsonPath, parseJsonText } from "./json.js";
import { readBytes, ReportError, type ReportFile } from "./types.js";

/**
 * The parts of Allure 2's result files that Assay reads (allure-js-commons `model.ts`). Fields
 * are optional and nullable because every Allure adapter leaves different ones out; unknown
 * fields are ignored. Types are still strict: a status that is an array is an error, not a guess.
 */

/** Later than any real report (year 2255) and well inside what Date accepts. */
const MAX_EPOCH_MS = 9e12;
/** Far more children than one suite has; bounds a hostile container. */
export const MAX_CONTAINER_CHILDREN = 100_000;

const text = z.string().nullish();
const epochMs = z.number().min(0).max(MAX_EPOCH_MS).nullish();

const StatusDetailsSchema = z.object({ message: text, trace: text }).nullish();

const AttachmentSchema = z.object({ name: text, source: z.string(), type: text });
export type AllureAttachment = z.infer<typeof AttachmentSchema>;

const ParameterSchema = z.object({
  name: z.string(),
  value: text,
  excluded: z.boolean().nullish(),
  mode: text,
});
export type AllureParameter = z.infer<typeof ParameterSchema>;

const LabelSchema = z.object({ name: z.string(), value: text });
export type AllureLabel = z.infer<typeof LabelSchema>;

/** A step, and also the shape of a container's before/after fixture. */
export interface AllureStep {
  name?: string | null | undefined;
  status?: string | null | undefined;
  statusDetails?: { message?: string | null | undefined; trace?: string | null | undefined } | null;
  start?: number | null | undefined;
  stop?: number | null | undefined;
  steps?: AllureStep[] | null | undefined;
  attachments?: AllureAttachment[] | null | undefined;
}

const StepSchema: z.ZodType<AllureStep> = z.lazy(() =>
  z.object({
    name: text,
    status: text,
    statusDetails: StatusDetailsSchema,
    start: epochMs,
    stop: epochMs,
    steps: z.array(StepSchema).nullish(),
    attachments: z.array(AttachmentSchema).nullish(),
  }),
);

const TestResultSchema = z.object({
  uuid: text,
  historyId: text,
  testCaseId: text,
  fullName: text,
  name: z.string(),
  titlePath: z.array(z.string()).nullish(),
  status: text,
  statusDetails: StatusDetailsSchema,
  description: text,
  start: epochMs,
  stop: epochMs,
  steps: z.array(StepSchema).nullish(),
  attachments: z.array(AttachmentSchema).nullish(),
  parameters: z.array(ParameterSchema).nullish(),
  labels: z.array(LabelSchema).nullish(),
});
export type AllureResult = z.infer<typeof TestResultSchema>;

const ContainerSchema = z.object({
  uuid: z.string(),
  name: text,
  children: z.array(z.string()).max(MAX_CONTAINER_CHILDREN).nullish(),
  befores: z.array(StepSchema).nullish(),
  afters: z.array(StepSchema).nullish(),
});
export type AllureContainer = z.infer<typeof ContainerSchema>;

/** Checks a parsed `*-result.json`; a mismatch names the JSON path and what was expected. */
export function toAllureResult(fileName: string, value: unknown): AllureResult {
  return check(fileName, value, TestResultSchema, "an Allure test result (*-result.json)");
}

/** Checks a parsed `*-container.json`. */
export function toAllureContainer(fileName: string, value: unknown): AllureContainer {
  return check(fileName, value, ContainerSchema, "an Allure container (*-container.json)");
}

/** Reads, parses and checks a `*-result.json`. */
export async function readAllureResult(file: ReportFile): Promise<AllureResult> {
  return toAllureResult(file.name, await readJsonFile(file));
}

/** Reads, parses and checks a `*-container.json`. */
export async function readAllureContainer(file: ReportFile): Promise<AllureContainer> {
  return toAllureContainer(file.name, await readJsonFile(file));
}

/** As json.ts's readJson, but taking the bytes from memory when the upload holds them there. */
async function readJsonFile(file: ReportFile): Promise<unknown> {
  return parseJsonText(file.name, (await readBytes(file)).toString("utf8"));
}

function check<T>(fileName: string, value: unknown, schema: z.ZodType<T>, expected: string): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const path = jsonPath((issue?.path ?? []).map((p) => (typeof p === "symbol" ? String(p) : p)));
  throw new ReportError(fileName, `expected ${expected}: ${issue?.message ?? "invalid"}`, { path });
}

/** Epoch milliseconds as ISO-8601; the schema has already bounded the number. */
export function isoTime(ms: number | null | undefined): string | undefined {
  return typeof ms === "number" ? new Date(ms).toISOString() : undefined;
}

/** stop - start in ms, or undefined when either is missing (never negative). */
export function durationMs(
  start: number | null | undefined,
  stop: number | null | undefined,
): number | undefined {
  return typeof start === "number" && typeof stop === "number"
    ? Math.max(0, stop - start)
    : undefined;
}
