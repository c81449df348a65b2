import { z } from "zod";

/**
 * Configuration catalogues: the option lists and business constants the UI
 * offers (sites, load-test teams, languages, test subsets, links...). They are
 * loaded from the `catalog:` key of assay.config.yaml rather than hard-coded so
 * that a self-hosted install can describe its own environments.
 *
 * Defaults exist only where the product spec fixes a constant (ticket pattern,
 * build regions, load-test defaults); everything else must come from the file.
 */

/** Option value that makes the UI ask for a free-text value (custom site, custom load host). */
export const OTHER_OPTION_VALUE = "other";

/** Ticket markers in failure messages, per the spec: "nxl-" followed by digits. */
export const DEFAULT_TICKET_PATTERN = "nxl-\\d+";

/** Stable test ids carried by reports: "TC123" in a tag or title (a bare numeric tag counts too). */
export const DEFAULT_TEST_ID_PATTERN = "TC(\\d+)";

const text = z.string().trim().min(1);
const httpUrl = () => z.url({ protocol: /^https?$/, error: "expected an http(s) URL" });
// Consumers append a ticket key or file path; without the slash they would glue words together.
const baseUrl = () => httpUrl().refine((url) => url.endsWith("/"), "base URLs must end with '/'");

const RegionCodeSchema = z
  .string()
  .regex(/^[a-z]{2}(-[a-z]+)+-\d+$/, "expected a cloud region code such as us-west-2");
const LocaleSchema = z
  .string()
  .regex(/^[a-z]{2,3}(-[A-Z][a-z]{3})?-([A-Z]{2}|\d{3})$/, "expected a BCP 47 locale like fr-FR");
// Tags are compared lower-cased everywhere, so a mixed-case catalogue tag could never match.
const TestTagSchema = z
  .string()
  .regex(/^@[a-z0-9][a-z0-9_.-]*$/, "tags are lower-case and start with '@', e.g. @smoke");
const DurationSchema = z
  .string()
  .regex(/^\d+[ms]$/, "Define duration in min or sec. eg: 5m or 20s");

/** An array unique by `key`: duplicates would render as indistinguishable options. */
function uniqueArray<T extends z.ZodType>(
  item: T,
  key: (entry: z.output<T>) => string | number,
  what: string,
) {
  return z.array(item).superRefine((entries, ctx) => {
    const seen = new Set<string | number>();
    entries.forEach((entry, index) => {
      const k = key(entry);
      if (seen.has(k))
        ctx.addIssue({ code: "custom", message: `duplicate ${what} "${k}"`, path: [index] });
      seen.add(k);
    });
  });
}

function hasOther(options: readonly { value: string }[]): boolean {
  return options.some((option) => option.value === OTHER_OPTION_VALUE);
}

function isValidRegex(source: string): boolean {
  try {
    new RegExp(source, "i");
    return true;
  } catch {
    return false;
  }
}

/** The Dashboard's DEV / STAGE switch. */
export const DailyEnvSchema = z.enum(["dev", "stage"]);

/** Who runs the daily runs the Dashboard charts (spec section 9), unless the catalogue says. */
export const DEFAULT_DAILY_EXECUTOR = "daily robot executor";
export const DEFAULT_RERUN_EXECUTOR = "daily automatic rerun-failed executor";

export const SiteOptionSchema = z.strictObject({
  value: text.describe("Site identifier sent to the runner as nora_site (usually a host name)"),
  label: text.describe("Name shown in the site selector"),
  environment: DailyEnvSchema.optional().describe(
    "dev or stage: the Dashboard's DEV / STAGE switch charts this site's daily runs there",
  ),
});

const SiteListSchema = uniqueArray(SiteOptionSchema, (site) => site.value, "site value")
  .min(1)
  .refine(hasOther, `each site list needs an "${OTHER_OPTION_VALUE}" entry (custom site field)`);

export const SitesSchema = z
  .strictObject({
    legacy: SiteListSchema.describe("Sites offered when the platform switch is Legacy"),
    nextGen: SiteListSchema.describe("Sites offered when the platform switch is NextGen"),
  })
  .describe("Frontend build sites per platform; switching platform selects the first entry");

export const BuildRegionSchema = z
  .enum(["US", "CHINA"])
  .describe("Build region; CHINA routes the build to the China-region service");

export const BuildRegionsSchema = z
  .strictObject({
    options: z.array(BuildRegionSchema).min(1).default(["US", "CHINA"]).describe("Regions offered"),
    default: BuildRegionSchema.default("US").describe("Region preselected in the switch"),
  })
  .refine((regions) => regions.options.includes(regions.default), {
    message: "buildRegions.default must be one of buildRegions.options",
    path: ["default"],
  });

export const LoadTestFileSchema = z.strictObject({
  value: text.describe("Locust file path sent as testFile"),
  label: text.describe("Feature name shown in the Feature selector"),
  customDb: z.boolean().optional().describe("The file the Custom DB run type forces"),
});

export const LoadTeamSchema = z.strictObject({
  name: text.describe("Team name shown in the Team selector"),
  testFiles: uniqueArray(LoadTestFileSchema, (file) => file.value, "test file")
    .min(1)
    .describe("Features of this team; the first is selected when the team changes"),
});

export const LoadEnvSchema = z.strictObject({
  value: text.describe("Environment identifier sent as env"),
  label: text.describe("Name shown in the Env selector"),
  host: httpUrl().optional().describe("Target host; omitted for Other, where the user types one"),
  supportsDbTest: z.boolean().optional().describe("The environment the Custom DB run type forces"),
});

export const LoadLocationSchema = z.strictObject({
  value: RegionCodeSchema.describe("Region the load generators run in, sent as loadRegion"),
  label: text.describe("Name shown in the Load Location selector"),
});

export const LoadRunTypeSchema = z.enum(["general", "custom_db"]).describe("Load build run type");

export const LoadDefaultsSchema = z.strictObject({
  team: text.default("NextGen").describe("Team preselected in the load dialog (a loadTeams name)"),
  runType: LoadRunTypeSchema.default("general"),
  users: z.int().positive().default(20).describe("No. of Users for a General run"),
  duration: DurationSchema.default("5m").describe("Duration for a General run"),
  spawnRate: z.number().positive().default(0.2).describe("Spawn Rate (user/sec)"),
  customDb: z
    .strictObject({
      users: z.int().positive().default(2).describe("No. of Users forced by Custom DB"),
      duration: DurationSchema.default("2m").describe("Duration forced by Custom DB"),
    })
    .prefault({}),
});

export const TranslationLanguageSchema = z
  .strictObject({
    translationCode: LocaleSchema.describe("Locale the translation test runs in, e.g. fr-FR"),
    languageCode: z
      .string()
      .regex(/^[a-z]{2,3}$/, "expected an ISO 639 code such as fr")
      .describe("ISO 639 language"),
    language: text.describe("Language name shown in the multi-select"),
    languageAbbreviation: z
      .string()
      .regex(/^[A-Z]{2,3}(-[A-Z0-9]+)*$/, "expected an upper-case abbreviation such as FR or FR-CA")
      .describe("Short label used in screenshot report names"),
  })
  .refine((lang) => lang.translationCode.startsWith(`${lang.languageCode}-`), {
    message: "translationCode must start with languageCode",
    path: ["translationCode"],
  });

export const FormLanguageSchema = z.strictObject({
  languageId: z.int().positive().describe("Numeric language id (Windows LCID) of the form engine"),
  uiLanguageCode: LocaleSchema.describe("BCP 47 locale of the UI, e.g. fr-CA"),
  languageName: text.describe("Language name shown to users"),
  formLanguageCode: z
    .string()
    .regex(/^[a-z]{2,3}(_[A-Z][a-z]{3})?(_([A-Z]{2}|\d{3}))?$/, "expected an ICU locale like fr_CA")
    .describe("ICU/Java locale id the form definitions are stored under"),
});

export const TestSubsetSchema = z
  .strictObject({
    name: text.describe("Subset name; the selector shows it with its count"),
    count: z.int().nonnegative().describe("Number of tests in the subset"),
    tags: z.array(TestTagSchema).describe("Tags the subset's tests carry"),
    testIds: uniqueArray(z.int().positive(), (id) => id, "test id").describe("Ids (shown TC{id})"),
  })
  // The count is written by hand next to the ids, so keep the two from drifting apart.
  .superRefine((subset, ctx) => {
    if (subset.count !== subset.testIds.length) {
      ctx.addIssue({
        code: "custom",
        path: ["count"],
        message: `count must equal the number of testIds (${subset.count} vs ${subset.testIds.length})`,
      });
    }
  });

const SubsetListSchema = uniqueArray(TestSubsetSchema, (subset) => subset.name, "subset name");

export const TestSubsetGroupsSchema = z
  .strictObject({
    legacy: SubsetListSchema.describe("Subsets of the legacy UI suite"),
    api: SubsetListSchema.describe("Subsets of the API (backend) suite"),
    nextGen: SubsetListSchema.describe("Subsets of the NextGen UI suite"),
  })
  .describe("Named test subsets offered by the By Sub Set run type");

export const DocumentationLinkSchema = z.strictObject({
  label: text.describe("Link text in the sidebar"),
  url: z
    .string()
    .regex(/^(https?:\/\/\S+|\/\S*)$/, "expected an http(s) URL or a path starting with '/'")
    .describe("Absolute URL, or a path on this server"),
});

export const FooterSchema = z.strictObject({
  copyright: text.describe("Copyright line in the footer"),
  tagline: text.describe("Team tagline in the footer"),
});

export const TestRepoLinksSchema = z
  .strictObject({
    frontend: httpUrl().describe("UI test repository"),
    backend: httpUrl().describe("API test repository"),
    load: httpUrl().describe("Load test repository"),
  })
  .describe("Targets of the Builds screen's View Test Repo button, per tab");

export const DailyRunsSchema = z
  .strictObject({
    executor: text
      .default(DEFAULT_DAILY_EXECUTOR)
      .describe("Executor name of the daily robot: only its runs make the Dashboard's charts"),
    rerunExecutor: text
      .default(DEFAULT_RERUN_EXECUTOR)
      .describe("Executor name of the automatic rerun of failures: the Dashboard's TABLE"),
    apiEnvironments: z
      .strictObject({
        dev: z.array(text).default(["dev", "dev1"]).describe("API run envs shown under DEV"),
        stage: z.array(text).default(["stage"]).describe("API run envs shown under STAGE"),
      })
      .prefault({})
      .describe("Which backend runs' env count as DEV and as STAGE on the Dashboard"),
  })
  .describe("The Dashboard's daily runs: executor names and API environments");

export const RegionLabelsSchema = z
  .record(RegionCodeSchema, text)
  .describe("Display names of cloud regions, e.g. us-west-2: US (Oregon)");

/**
 * How a cloud region reads on every screen (run lists and dialogs alike): the catalogue's
 * label, e.g. "US (Oregon)" for us-west-2, or the code when the catalogue has none.
 */
export function regionLabel(
  code: string | null,
  labels: Readonly<Record<string, string>> | undefined,
): string | null {
  if (!code) return null;
  return labels?.[code] ?? code;
}

export const CatalogSchema = z
  .strictObject({
    sites: SitesSchema,
    buildRegions: BuildRegionsSchema.prefault({}).describe("Frontend build regions"),
    loadTeams: uniqueArray(LoadTeamSchema, (team) => team.name, "load team").min(1),
    loadEnvs: uniqueArray(LoadEnvSchema, (env) => env.value, "load env")
      .min(1)
      .refine(hasOther, `loadEnvs needs an "${OTHER_OPTION_VALUE}" entry (custom host field)`),
    loadLocations: uniqueArray(LoadLocationSchema, (loc) => loc.value, "load location").min(1),
    loadDefaults: LoadDefaultsSchema.prefault({}).describe("Initial values of the load dialog"),
    regionLabels: RegionLabelsSchema,
    translationLanguages: uniqueArray(TranslationLanguageSchema, (l) => l.translationCode, "locale")
      .min(1)
      .describe("Languages offered by the Translation Test run type"),
    formLanguages: uniqueArray(FormLanguageSchema, (l) => l.languageId, "languageId")
      .min(1)
      .describe("Languages eCOA forms are published in"),
    testSubsets: TestSubsetGroupsSchema,
    majorTags: uniqueArray(TestTagSchema, (tag) => tag, "major tag")
      .min(1)
      .describe("Tags failures are grouped by in the Failed Summary; others fall into Unknown"),
    ticketPattern: z
      .string()
      .min(1)
      .refine(isValidRegex, "ticketPattern must be a valid regular expression")
      .default(DEFAULT_TICKET_PATTERN)
      .describe("Regular expression (matched case-insensitively) for tickets in failures"),
    testIdPattern: z
      .string()
      .min(1)
      .refine(isValidRegex, "testIdPattern must be a valid regular expression")
      .refine(
        (source) => isValidRegex(source) && new RegExp(`${source}|`).exec("")!.length > 1,
        "testIdPattern needs one capture group around the digits, e.g. TC(\\d+)",
      )
      .default(DEFAULT_TEST_ID_PATTERN)
      .describe("Regular expression (case-insensitive) whose first group is a test's stable id"),
    issueTrackerUrl: baseUrl().describe("Base URL of ticket links; the ticket key is appended"),
    companyEmailDomain: z
      .string()
      .regex(
        /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+$/,
        "expected a lower-case domain such as example.com",
      )
      .describe("Only addresses in this domain may receive translation reports"),
    companyName: text.describe("Company name used in messages"),
    documentationLinks: z.array(DocumentationLinkSchema).describe("Sidebar documentation links"),
    footer: FooterSchema,
    sourceRepositoryUrl: baseUrl().describe("Base URL of source links; a file path is appended"),
    testRepoLinks: TestRepoLinksSchema,
    dailyRuns: DailyRunsSchema.prefault({}),
  })
  // Rules spanning several lists, which the load dialog's Custom DB and team logic relies on.
  .superRefine((catalog, ctx) => {
    if (!catalog.loadTeams.some((team) => team.name === catalog.loadDefaults.team)) {
      ctx.addIssue({
        code: "custom",
        path: ["loadDefaults", "team"],
        message: `loadDefaults.team "${catalog.loadDefaults.team}" is not a loadTeams name`,
      });
    }
    const dbEnvs = catalog.loadEnvs.filter((env) => env.supportsDbTest === true).length;
    if (dbEnvs !== 1) {
      ctx.addIssue({
        code: "custom",
        path: ["loadEnvs"],
        message: `exactly one load env must set supportsDbTest (Custom DB uses it); found ${dbEnvs}`,
      });
    }
    const dbFiles = catalog.loadTeams
      .flatMap((team) => team.testFiles)
      .filter((f) => f.customDb === true).length;
    if (dbFiles !== 1) {
      ctx.addIssue({
        code: "custom",
        path: ["loadTeams"],
        message: `exactly one load test file must set customDb (Custom DB uses it); found ${dbFiles}`,
      });
    }
  })
  .describe("Option lists and constants the UI offers");

export type SiteOption = z.infer<typeof SiteOptionSchema>;
export type Sites = z.infer<typeof SitesSchema>;
export type BuildRegion = z.infer<typeof BuildRegionSchema>;
export type BuildRegions = z.infer<typeof BuildRegionsSchema>;
export type LoadTestFile = z.infer<typeof LoadTestFileSchema>;
export type LoadTeam = z.infer<typeof LoadTeamSchema>;
export type LoadEnv = z.infer<typeof LoadEnvSchema>;
export type LoadLocation = z.infer<typeof LoadLocationSchema>;
export type LoadRunType = z.infer<typeof LoadRunTypeSchema>;
export type LoadDefaults = z.infer<typeof LoadDefaultsSchema>;
export type TranslationLanguage = z.infer<typeof TranslationLanguageSchema>;
export type FormLanguage = z.infer<typeof FormLanguageSchema>;
export type TestSubset = z.infer<typeof TestSubsetSchema>;
export type TestSubsetGroups = z.infer<typeof TestSubsetGroupsSchema>;
export type DocumentationLink = z.infer<typeof DocumentationLinkSchema>;
export type FooterConfig = z.infer<typeof FooterSchema>;
export type TestRepoLinks = z.infer<typeof TestRepoLinksSchema>;
export type DailyEnv = z.infer<typeof DailyEnvSchema>;
export type DailyRuns = z.infer<typeof DailyRunsSchema>;
export type RegionLabels = z.infer<typeof RegionLabelsSchema>;
export type Catalog = z.infer<typeof CatalogSchema>;
/** What the YAML may contain: defaulted keys are optional here. */
export type CatalogInput = z.input<typeof CatalogSchema>;
