import { z } from "zod";

/**
 * The `builds:` key of assay.config.yaml: which executor runs each build list (frontend, its
 * China-region variant, backend, load), the build time limit, polling and the per-user rate
 * limit. Credentials are never here: they come from the environment (variables named below).
 * Without the key every list runs the example suites of examples/ on the local executor.
 */

const ENV_NAME = /^[A-Z][A-Z0-9_]{0,99}$/;
const envName = (description: string) =>
  z
    .string()
    .regex(ENV_NAME, "expected an environment variable name such as GITHUB_TOKEN")
    .describe(description);

/** A tool a local build needs: checked before the command starts, so a missing one fails at once. */
const RequirementSchema = z.strictObject({
  executable: z
    .string()
    .min(1)
    .describe("A program name looked up in PATH (locust), or an absolute path (/usr/bin/chromium)"),
  install: z.string().min(1).describe("What to install or configure when it is missing"),
  // An env variable that, when set for the server, names the tool instead (e.g. CHROMIUM_PATH).
  overrideEnv: envName("Server environment variable that may point at the tool instead").optional(),
});

export const LocalExecutorSchema = z.strictObject({
  kind: z.literal("local"),
  command: z
    .array(z.string().min(1).max(1000))
    .min(1)
    .max(50)
    .describe("argv of the runner, fixed: no build value is ever put in it (they are env vars)"),
  cwd: z.string().min(1).optional().describe("Working folder, relative to Assay's install folder"),
  requires: z.array(RequirementSchema).default([]),
  /** Server environment variables handed to the runner as they are (PATH and HOME always are). */
  passEnv: z.array(envName("A server variable the runner also gets")).default([]),
});

export const CodeBuildExecutorSchema = z.strictObject({
  kind: z.literal("codebuild"),
  projectName: z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9_-]{1,254}$/, "expected a CodeBuild project name"),
  region: z
    .string()
    .regex(/^[a-z]{2}(-[a-z]+)+-\d$/, "expected an AWS region such as us-west-2 or cn-north-1"),
  endpoint: z.url().optional().describe("CodeBuild endpoint override (a VPC endpoint)"),
  logsEndpoint: z
    .url()
    .optional()
    .describe("CloudWatch Logs endpoint override (a VPC endpoint), where the build logs are read"),
  credentialsEnvPrefix: z
    .string()
    .regex(/^[A-Z][A-Z0-9_]*$/)
    .optional()
    .describe(
      "Read <PREFIX>_ACCESS_KEY_ID, <PREFIX>_SECRET_ACCESS_KEY and <PREFIX>_SESSION_TOKEN; unset: the default AWS chain",
    ),
});

export const GitHubExecutorSchema = z.strictObject({
  kind: z.literal("github"),
  owner: z.string().regex(/^[A-Za-z0-9_.-]{1,100}$/, "expected a GitHub owner"),
  repo: z.string().regex(/^[A-Za-z0-9_.-]{1,100}$/, "expected a GitHub repository name"),
  workflow: z
    .string()
    .regex(/^[A-Za-z0-9_.-]{1,255}$/, "expected a workflow file name such as assay-build.yml"),
  apiUrl: z
    .url()
    .default("https://api.github.com")
    .describe("GitHub Enterprise: https://HOST/api/v3"),
  tokenEnv: envName("Variable holding the GitHub token (actions: write)").default("GITHUB_TOKEN"),
});

export const ExecutorSettingsSchema = z.discriminatedUnion("kind", [
  LocalExecutorSchema,
  CodeBuildExecutorSchema,
  GitHubExecutorSchema,
]);
export type ExecutorSettings = z.infer<typeof ExecutorSettingsSchema>;
export type LocalExecutorSettings = z.infer<typeof LocalExecutorSchema>;
export type CodeBuildExecutorSettings = z.infer<typeof CodeBuildExecutorSchema>;
export type GitHubExecutorSettings = z.infer<typeof GitHubExecutorSchema>;

const CHROMIUM = {
  executable: "/usr/bin/chromium",
  install: "Chromium: apt-get install chromium, or set CHROMIUM_PATH for the server",
  overrideEnv: "CHROMIUM_PATH",
};

/** The example suites, run against this Assay by the local executor (examples/README.md). */
export const DEFAULT_EXECUTORS = {
  frontend: {
    kind: "local",
    command: ["node", "examples/frontend/run.mjs"],
    requires: [CHROMIUM],
    passEnv: ["CHROMIUM_PATH", "ASSAY_EXAMPLE_BUDGET_MS"],
  },
  china: {
    kind: "local",
    command: ["node", "examples/frontend/run.mjs"],
    requires: [CHROMIUM],
    passEnv: ["CHROMIUM_PATH", "ASSAY_EXAMPLE_BUDGET_MS"],
  },
  backend: {
    kind: "local",
    command: ["node", "examples/backend/run.mjs"],
    requires: [],
    passEnv: [],
  },
  load: {
    kind: "local",
    command: ["node", "examples/load/run.mjs"],
    requires: [
      { executable: "locust", install: "Locust: pip install locust (then restart Assay)" },
    ],
    passEnv: [],
  },
} as const satisfies Record<string, ExecutorSettings>;

export const BuildsConfigSchema = z
  .strictObject({
    executors: z
      .strictObject({
        frontend: ExecutorSettingsSchema.default(DEFAULT_EXECUTORS.frontend),
        china: ExecutorSettingsSchema.default(DEFAULT_EXECUTORS.china).describe(
          "Frontend builds in the CHINA region (/v1/china/builds)",
        ),
        backend: ExecutorSettingsSchema.default(DEFAULT_EXECUTORS.backend),
        load: ExecutorSettingsSchema.default(DEFAULT_EXECUTORS.load),
      })
      .prefault({}),
    timeLimitMinutes: z
      .int()
      .min(1)
      .max(24 * 60)
      .default(60)
      .describe("A build running longer is stopped (TIMED_OUT)"),
    pollSeconds: z
      .int()
      .min(2)
      .max(600)
      .default(10)
      .describe("How often CodeBuild and GitHub builds are polled"),
    localConcurrency: z
      .int()
      .min(1)
      .max(100)
      .default(4)
      .describe(
        "Local builds one server runs at once; more wait QUEUED and start when a slot frees (on any server)",
      ),
    rateLimit: z
      .strictObject({
        builds: z.int().min(1).max(10_000).default(10),
        perMinutes: z.int().min(1).max(1440).default(10),
      })
      .prefault({})
      .describe("Builds one user may start per window; more answers 429 with Retry-After"),
    allowLinkLocalTargets: z
      .boolean()
      .default(false)
      .describe("Let builds target link-local and cloud metadata addresses (169.254.169.254...)"),
  })
  .prefault({});
export type BuildsConfig = z.infer<typeof BuildsConfigSchema>;
export type ExecutorList = keyof BuildsConfig["executors"];
