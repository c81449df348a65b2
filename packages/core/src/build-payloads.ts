import { z } from "zod";
import { OTHER_OPTION_VALUE } from "./catalog.js";
import {
  BUILD_TEXT_MAX_LENGTH,
  BranchSchema,
  DEFAULT_BRANCH,
  HostSchema,
  LabelSchema,
  ParallelRunnersSchema,
  STAGE_BRANCH,
  BuildTagListSchema,
  hasControlCharacters,
} from "./build-values.js";

/**
 * Build request payloads of spec section 3 with the validation rules and messages of section 5.
 * The dialogs and the server parse with the same schemas: `frontendBuildSchema(context)` needs
 * what only the caller knows (the company domain, whether the profile holds Spira credentials).
 * Unknown fields are refused, so a value can never slip past the rules under another name.
 */

/** Spec section 4 "Build run types". */
export const FRONTEND_RUN_TYPES = [
  "run_all",
  "by_tags",
  "by_dynamic_tags",
  "by_sub_set",
  "oq_test",
  "translation_test",
  "bulk_image_upload",
] as const;
export const FrontendRunTypeSchema = z.enum(FRONTEND_RUN_TYPES, {
  error: `mode must be one of ${FRONTEND_RUN_TYPES.join(", ")}`,
});
export type FrontendRunType = z.infer<typeof FrontendRunTypeSchema>;
export const BACKEND_RUN_TYPES = ["run_all", "by_tags", "by_sub_set"] as const;
export const BackendRunTypeSchema = z.enum(BACKEND_RUN_TYPES, {
  error: `mode must be one of ${BACKEND_RUN_TYPES.join(", ")}`,
});
export type BackendRunType = z.infer<typeof BackendRunTypeSchema>;
export const DEFAULT_RUN_TYPE = "run_all" satisfies FrontendRunType;

/** Messages of spec section 5, shown by the dialogs and returned by the server. */
export const BUILD_MESSAGES = {
  spiraCredentials: "Please provide SPIRA credentials, in your profile first.",
  invalidEmail: "Please enter valid email.",
  companyEmail: (company: string) => `Only ${company} email supported`,
  translationLanguages: "Please select translation language code(s).",
  stageNote: "This test runs on Stage env.",
  customSite: "Please enter the custom site.",
  customDatabaseHost: "Please enter the custom database host.",
  tagRequired: "A tag is required for By Test Tags.",
  subSetRequired: "A sub set is required for By Sub Set.",
  dynamicTagRequired: "A dynamic tag is required for By Dynamic Tags.",
  patientsRequired: "Please enter the Number of Patients.",
  envRequired: "Env is required.",
  dbQueryMissing: "DB Query is missing",
  dbQueryInvalid: "DB Query is invalid",
  missingCustomHost: "Missing custom host",
  invalidEnv: "Invalid Env",
  invalidBranch: "Invalid branch",
  invalidTestFile: "Invalid testFile",
  invalidDuration: "Define duration in min or sec. eg: 5m or 20s",
  invalidUsers: "Invalid users",
} as const;

const EMAIL = /^[^\s@,;<>()"]+@[a-z0-9-]+(\.[a-z0-9-]+)+$/i;

/** Spec section 5: the list is split on commas and its whitespace removed; empty entries dropped. */
export function splitEmailList(text: string): string[] {
  return text
    .split(",")
    .map((entry) => entry.replace(/\s/g, ""))
    .filter((entry) => entry !== "");
}

/** The first spec message an email list earns, or null when every entry is a company address. */
export function emailListProblem(text: string, domain: string, company: string): string | null {
  for (const email of splitEmailList(text)) {
    if (!EMAIL.test(email)) return BUILD_MESSAGES.invalidEmail;
    if (!email.toLowerCase().endsWith(`@${domain.toLowerCase()}`))
      return BUILD_MESSAGES.companyEmail(company);
  }
  return null;
}

const LOCALE = /^[a-z]{2,3}(-[A-Z][a-z]{3})?-([A-Z]{2}|\d{3})$/;

export const FrontendBuildShape = {
  mode: FrontendRunTypeSchema.default(DEFAULT_RUN_TYPE).describe("Run type (spec section 4)"),
  branch: BranchSchema.default(DEFAULT_BRANCH),
  tag: BuildTagListSchema.optional(),
  subSet: LabelSchema("The sub set").optional().describe("Name of the chosen sub set (recorded)"),
  dynamicTag: LabelSchema("The dynamic tag").optional().describe("Dynamic tag filter (recorded)"),
  nora_site: HostSchema("The site must be a host name or an https URL").describe(
    "Site the suite runs against (a catalogue site, or the custom site when Other)",
  ),
  database_host: HostSchema("The database host must be a host name or an https URL").optional(),
  parallel_runners: ParallelRunnersSchema,
  executor: LabelSchema("The executor", 100)
    .optional()
    .describe("Shown as EXECUTOR; defaults to you"),
  enable_coverage: z.boolean({ error: "enable_coverage must be true or false" }).default(false),
  isNextGen: z.boolean({ error: "isNextGen must be true or false" }).default(false),
  releaseId: z.int({ error: "releaseId must be a Spira release id" }).positive().optional(),
  jiraRelease: LabelSchema("The Jira release").optional(),
  translationLanguageCode: z
    .array(z.string().regex(LOCALE, "Language codes look like fr-FR"), {
      error: "translationLanguageCode must be a list of language codes",
    })
    .max(100)
    .optional(),
  translationReportToEmail: z
    .string({ error: "translationReportToEmail must be text" })
    .max(BUILD_TEXT_MAX_LENGTH)
    .refine((text) => !hasControlCharacters(text), BUILD_MESSAGES.invalidEmail)
    .optional(),
  numberOfPatientsCreated: z
    .int({ error: "Number of Patients must be a whole number" })
    .min(1, "Number of Patients must be at least 1")
    .max(10_000, "Number of Patients can be at most 10000")
    .optional(),
};

/** What only the caller knows: the catalogue's company and the user's profile. */
export type FrontendBuildContext = {
  companyEmailDomain: string;
  companyName: string;
  /** The profile holds both the test-management username and password. */
  hasSpiraCredentials: boolean;
};

export function frontendBuildSchema(context: FrontendBuildContext) {
  return z.strictObject(FrontendBuildShape).superRefine((build, ctx) => {
    const fail = (message: string, path: string) =>
      ctx.addIssue({ code: "custom", message, path: [path] });
    // The selectors' Other entry stands for a custom value the user has not typed yet.
    if (build.nora_site === OTHER_OPTION_VALUE) fail(BUILD_MESSAGES.customSite, "nora_site");
    if (build.database_host === OTHER_OPTION_VALUE)
      fail(BUILD_MESSAGES.customDatabaseHost, "database_host");
    if (build.mode === "by_tags" && build.tag === undefined)
      fail(BUILD_MESSAGES.tagRequired, "tag");
    if (build.mode === "by_sub_set" && (build.tag === undefined || build.subSet === undefined))
      fail(BUILD_MESSAGES.subSetRequired, "subSet");
    if (
      build.mode === "by_dynamic_tags" &&
      (build.tag === undefined || build.dynamicTag === undefined)
    )
      fail(BUILD_MESSAGES.dynamicTagRequired, "dynamicTag");
    if (build.mode === "oq_test" && !context.hasSpiraCredentials)
      fail(BUILD_MESSAGES.spiraCredentials, "mode");
    if (build.mode === "bulk_image_upload" && build.numberOfPatientsCreated === undefined)
      fail(BUILD_MESSAGES.patientsRequired, "numberOfPatientsCreated");
    if (build.mode === "translation_test") {
      if ((build.translationLanguageCode ?? []).length === 0)
        fail(BUILD_MESSAGES.translationLanguages, "translationLanguageCode");
      if (build.branch !== STAGE_BRANCH || build.parallel_runners !== 1)
        fail(`${BUILD_MESSAGES.stageNote} Use branch ${STAGE_BRANCH} and 1 runner.`, "branch");
    }
    if (build.translationReportToEmail !== undefined) {
      const problem = emailListProblem(
        build.translationReportToEmail,
        context.companyEmailDomain,
        context.companyName,
      );
      if (problem) fail(problem, "translationReportToEmail");
    }
  });
}
export type FrontendBuildRequest = z.infer<ReturnType<typeof frontendBuildSchema>>;
export type FrontendBuildInput = z.input<ReturnType<typeof frontendBuildSchema>>;

/** A backend env: a name such as dev1, or the base URL of the API under test. */
const BackendEnvSchema = z
  .string({ error: BUILD_MESSAGES.envRequired })
  .min(1, BUILD_MESSAGES.envRequired)
  .refine(
    (env) => /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/.test(env) || HostSchema("").safeParse(env).success,
    "Env must be a name such as dev1 (letters, digits, . _ -) or an https URL",
  );

export const BackendBuildSchema = z
  .strictObject({
    mode: BackendRunTypeSchema.default(DEFAULT_RUN_TYPE),
    parallel_runners: ParallelRunnersSchema,
    branch: z
      .string({ error: "Branch is required." })
      .min(1, "Branch is required.")
      .pipe(BranchSchema),
    env: BackendEnvSchema,
    tag: BuildTagListSchema.optional(),
    subSet: LabelSchema("The sub set").optional(),
    executor: LabelSchema("The executor", 100).optional(),
  })
  .superRefine((build, ctx) => {
    if (build.mode === "by_tags" && build.tag === undefined)
      ctx.addIssue({ code: "custom", message: BUILD_MESSAGES.tagRequired, path: ["tag"] });
    if (build.mode === "by_sub_set" && (build.tag === undefined || build.subSet === undefined))
      ctx.addIssue({ code: "custom", message: BUILD_MESSAGES.subSetRequired, path: ["subSet"] });
  });
export type BackendBuildRequest = z.infer<typeof BackendBuildSchema>;
export type BackendBuildInput = z.input<typeof BackendBuildSchema>;

export const LOAD_RUN_TYPES = ["general", "custom_db"] as const;
const LOAD_ENV = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
const TEST_FILE = /^(?!.*\.\.)(?!\/)[A-Za-z0-9_][A-Za-z0-9_./-]{0,254}$/;
/** Durations Locust accepts: a number of minutes or seconds, at most a day. */
const DURATION = /^(\d{1,5})([ms])$/;
export const LOAD_MAX_USERS = 100_000;
export const LOAD_MAX_SPAWN_RATE = 10_000;
export const LOAD_MAX_SECONDS = 24 * 3600;

export function durationSeconds(runTime: string): number | null {
  const match = DURATION.exec(runTime);
  if (!match) return null;
  return Number(match[1]) * (match[2] === "m" ? 60 : 1);
}

export const LoadBuildSchema = z
  .strictObject({
    runType: z
      .enum(LOAD_RUN_TYPES, { error: "runType must be general or custom_db" })
      .default("general"),
    branch: z
      .string({ error: BUILD_MESSAGES.invalidBranch })
      .min(1, BUILD_MESSAGES.invalidBranch)
      .pipe(BranchSchema),
    env: z.string({ error: BUILD_MESSAGES.invalidEnv }).regex(LOAD_ENV, BUILD_MESSAGES.invalidEnv),
    host: HostSchema("The host must be a host name or an https URL").optional(),
    testFile: z
      .string({ error: BUILD_MESSAGES.invalidTestFile })
      .regex(TEST_FILE, BUILD_MESSAGES.invalidTestFile),
    runTime: z
      .string({ error: BUILD_MESSAGES.invalidDuration })
      .refine((t) => (durationSeconds(t) ?? 0) > 0, BUILD_MESSAGES.invalidDuration)
      .refine(
        (t) => (durationSeconds(t) ?? 0) <= LOAD_MAX_SECONDS,
        "A load test runs at most 24 hours",
      ),
    spawnRate: z
      .number({ error: "Spawn Rate must be a number of users per second" })
      .positive("Spawn Rate must be above 0")
      .max(LOAD_MAX_SPAWN_RATE, `Spawn Rate can be at most ${LOAD_MAX_SPAWN_RATE}`),
    users: z
      .int({ error: BUILD_MESSAGES.invalidUsers })
      .min(1, BUILD_MESSAGES.invalidUsers)
      .max(LOAD_MAX_USERS, `No. of Users can be at most ${LOAD_MAX_USERS}`),
    loadRegion: z
      .string({ error: "loadRegion must be a region code such as us-west-2" })
      .regex(/^[a-z]{2}(-[a-z]+)+-\d$/, "loadRegion must be a region code such as us-west-2"),
    query: z
      .string({ error: "The DB Query must be text" })
      .max(BUILD_TEXT_MAX_LENGTH, `The DB Query has at most ${BUILD_TEXT_MAX_LENGTH} characters`)
      .optional(),
    team: LabelSchema("The team", 100).optional(),
    executor: LabelSchema("The executor", 100).optional(),
  })
  .superRefine((build, ctx) => {
    const fail = (message: string, path: string) =>
      ctx.addIssue({ code: "custom", message, path: [path] });
    const query = build.query ?? "";
    if (build.runType === "custom_db" && query.trim() === "")
      fail(BUILD_MESSAGES.dbQueryMissing, "query");
    // A line break would end the runner's single-line variable; other controls hide text.
    if (/[\r\n]/.test(query) || hasControlCharacters(query))
      fail(BUILD_MESSAGES.dbQueryInvalid, "query");
    if (build.env === "other" && build.host === undefined)
      fail(BUILD_MESSAGES.missingCustomHost, "host");
  });
export type LoadBuildRequest = z.infer<typeof LoadBuildSchema>;
export type LoadBuildInput = z.input<typeof LoadBuildSchema>;

/** Spec: the Rerun buttons of the results dialogs. The backend Failed box reruns failed only. */
export const RerunBodySchema = z.strictObject({
  tests: z.enum(["failed", "unstable"], { error: 'tests must be "failed" or "unstable"' }),
});
export type RerunBody = z.infer<typeof RerunBodySchema>;
export const BackendRerunBodySchema = z.strictObject({
  tests: z.literal("failed", { error: 'tests must be "failed"' }),
});
