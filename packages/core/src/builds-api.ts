import { z } from "zod";
import { DEFAULT_RUN_PAGE_SIZE, RUN_PAGE_SIZES, pageSchema } from "./runs-api.js";

/**
 * The builds API (spec section 7: GET/POST /v1/builds, /v1/china/builds, /v1/api/builds,
 * /v1/load/builds; GET /v1/builds/{id}, POST /v1/builds/{id}/stop; reruns). Record field names
 * are the spec's (section 3 "Build (build-job record)"); phases and statuses are CodeBuild's, the
 * vocabulary every executor reports in.
 */

/** CodeBuild's build phases, in the order a build goes through them. */
export const BUILD_PHASES = [
  "SUBMITTED",
  "QUEUED",
  "PROVISIONING",
  "DOWNLOAD_SOURCE",
  "INSTALL",
  "PRE_BUILD",
  "BUILD",
  "POST_BUILD",
  "UPLOAD_ARTIFACTS",
  "FINALIZING",
  "COMPLETED",
] as const;
export const BuildPhaseSchema = z.enum(BUILD_PHASES);
export type BuildPhase = z.infer<typeof BuildPhaseSchema>;

/** CodeBuild's build statuses; every one but IN_PROGRESS is final. */
export const BUILD_STATUSES = [
  "IN_PROGRESS",
  "SUCCEEDED",
  "FAILED",
  "FAULT",
  "TIMED_OUT",
  "STOPPED",
] as const;
export const BuildStatusSchema = z.enum(BUILD_STATUSES);
export type BuildStatus = z.infer<typeof BuildStatusSchema>;

export function isFinalStatus(status: BuildStatus): boolean {
  return status !== "IN_PROGRESS";
}

/** Which dialog and list a build belongs to; the China list is the frontend family in CHINA. */
export const BUILD_FAMILIES = ["frontend", "backend", "load"] as const;
export const BuildFamilySchema = z.enum(BUILD_FAMILIES);
export type BuildFamily = z.infer<typeof BuildFamilySchema>;

export const EXECUTOR_KINDS = ["local", "codebuild", "github"] as const;
export const ExecutorKindSchema = z.enum(EXECUTOR_KINDS);
export type ExecutorKind = z.infer<typeof ExecutorKindSchema>;

export const BUILD_REGIONS = ["US", "CHINA"] as const;

const timestamp = () => z.iso.datetime({ offset: true });
const nullableText = (description: string) => z.string().nullable().describe(description);

export const BuildSchema = z.object({
  id: z.int().positive().describe("The build's id in Assay"),
  family: BuildFamilySchema,
  region: z.enum(BUILD_REGIONS).describe("CHINA for builds listed under /v1/china/builds"),
  TEST_RUN_NAME: z.string().describe("Name of the run the build produces"),
  NORA_SITE: nullableText("Frontend: the site tested"),
  ENVIRONMENT: nullableText("Backend: the env name tested"),
  BASE_URL: nullableText("Backend: the base URL tested, when env is a URL"),
  EXECUTOR: z
    .string()
    .describe("Who the run is attributed to (the dialog's executor, else the user)"),
  TEST_TAG: nullableText("Tags or test ids selected; null runs all tests"),
  ENV: nullableText("Load: env"),
  HOST: nullableText("Load: target host"),
  TEST_FILE: nullableText("Load: Locust file"),
  USERS: z.int().nullable().describe("Load: No. of Users"),
  RUN_TIME: nullableText("Load: duration, e.g. 5m"),
  SPAWN_RATE: z.number().nullable().describe("Load: users started per second"),
  mode: z.string().describe("Run type (frontend/backend mode, load runType)"),
  sourceVersion: z.string().describe("Branch the suite was checked out at"),
  currentPhase: BuildPhaseSchema,
  buildStatus: BuildStatusSchema,
  startTime: timestamp(),
  endTime: timestamp().nullable(),
  statusMessage: nullableText("Why the build failed or stopped, e.g. which tool to install"),
  executorKind: ExecutorKindSchema,
  externalId: nullableText("The executor's id: CodeBuild build id, GitHub run id, local pid"),
  externalUrl: nullableText("The build's page at the executor (CodeBuild console, GitHub run)"),
  test_run_key: z.string().describe("The run the build reports into"),
  rerunOf: z
    .enum(["failed", "unstable"])
    .nullable()
    .describe("Set when the build reruns the failed or unstable tests of test_run_key"),
  startedBy: z
    .object({
      email: z.string().nullable().describe("Signed-in readers only: null for others"),
      name: z.string(),
    })
    .describe("Who started the build"),
  payload: z
    .record(z.string(), z.unknown())
    .describe(
      "The request as validated. It never holds a secret: the dialogs cannot send one, and ASSAY_TOKEN and the Spira string are made when the build starts and never stored. Signed-out readers get it without its email-list fields",
    ),
  logUrl: nullableText("Download link of the build log, once there is one"),
});
export type Build = z.infer<typeof BuildSchema>;

export const BuildPageSchema = pageSchema(BuildSchema).extend({
  active: z.int().nonnegative().describe("Builds of this list still IN_PROGRESS (over all pages)"),
});
export type BuildPage = z.infer<typeof BuildPageSchema>;

/** Longest log tail returned inline; the whole log is downloaded from logUrl. */
export const BUILD_LOG_TAIL_BYTES = 256 * 1024;

/** One step of a build's history (issue 31): queued, started, taken over, stop asked, finished. */
export const BuildEventSchema = z.object({
  at: timestamp(),
  kind: z
    .enum(["queued", "started", "waiting", "taken_over", "stop_requested", "finished"])
    .describe("What happened"),
  server: nullableText("The Assay server process it happened on (its id), when one did it"),
  message: z.string().describe("What happened, in words"),
});
export type BuildEvent = z.infer<typeof BuildEventSchema>;

export const BuildDetailSchema = BuildSchema.extend({
  events: z
    .array(BuildEventSchema)
    .describe("The build's history, oldest first; statusMessage is the latest event's words"),
  log: z.object({
    text: z.string().describe("The log's last BUILD_LOG_TAIL_BYTES bytes (all of it when shorter)"),
    truncated: z.boolean().describe("The log is longer than what text holds"),
    bytes: z.int().nonnegative(),
  }),
});
export type BuildDetail = z.infer<typeof BuildDetailSchema>;

export const BuildListQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  page_size: z.coerce.number().pipe(z.literal(RUN_PAGE_SIZES)).default(DEFAULT_RUN_PAGE_SIZE),
  test_run_key: z.string().min(1).max(200).optional().describe("Only the builds of this run"),
});
export type BuildListQuery = z.infer<typeof BuildListQuerySchema>;

export const BuildIdParamsSchema = z.object({
  id: z
    .string()
    .regex(/^\d{1,15}$/, "The build id must be a number, e.g. 12")
    .transform(Number),
});

/** Answer of a create or a rerun: the new build, as GET /v1/builds/{id} will show it. */
export const CreatedBuildSchema = z.object({ build: BuildSchema });
export type CreatedBuild = z.infer<typeof CreatedBuildSchema>;

/** The four build lists (spec section 7); China is the frontend family in the CHINA region. */
export const BUILD_LIST_PATHS = {
  frontend: "/v1/builds",
  china: "/v1/china/builds",
  backend: "/v1/api/builds",
  load: "/v1/load/builds",
} as const;
export type BuildList = keyof typeof BUILD_LIST_PATHS;

/** Rerun paths: the frontend results dialog (failed or unstable) and the backend Failed box. */
export const rerunPath = (family: "frontend" | "backend", key: string) =>
  family === "frontend"
    ? `/v1/test-runs/${encodeURIComponent(key)}/rerun`
    : `/v1/api-test-run/${encodeURIComponent(key)}/rerun`;
