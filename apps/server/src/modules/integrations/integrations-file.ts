import { z } from "zod";

/**
 * The `integrations:` key of assay.config.yaml: the same Jira and Spira settings as the
 * ASSAY_JIRA_* / ASSAY_SPIRA_* variables, under names a YAML file reads well with. A variable
 * that is set wins over the file (a deployment overrides what the file ships). Secrets (the
 * Jira token, the Spira API key) are refused here: a config file is copied, committed and
 * shown; they come from the environment or a secret file (NAME_FILE) only.
 */

const secretRefused = (variable: string) =>
  z
    .unknown()
    .refine(
      (value) => value === undefined,
      `secrets never go in assay.config.yaml: remove this key and set ${variable} (or ${variable}_FILE naming a file that holds it) in the server's environment`,
    )
    .optional();

const jiraSecrets = Object.fromEntries(
  ["token", "apiToken", "pat", "password"].map((key) => [key, secretRefused("ASSAY_JIRA_TOKEN")]),
);
const spiraSecrets = Object.fromEntries(
  ["apiKey", "api-key", "rssToken", "token", "password"].map((key) => [
    key,
    secretRefused("ASSAY_SPIRA_API_KEY"),
  ]),
);

const text = (what: string) => z.string(`expected ${what}`).trim().min(1, `expected ${what}`);
const names = (what: string) => z.array(text(what), `expected a list of ${what}s`).min(1);

export const IntegrationsFileSchema = z.strictObject({
  jira: z
    .strictObject({
      url: text("Jira's base URL such as https://example.atlassian.net"),
      deployment: z.enum(["cloud", "datacenter"], { error: "expected cloud or datacenter" }),
      email: text("the Jira account's e-mail address"),
      project: text("a project key such as NXL"),
      requirementsJql: text("the JQL that selects the requirements"),
      requirementTypes: names("issue type"),
      bugTypes: names("issue type"),
      incidentJql: text("the JQL that selects incidents"),
      linkTypes: names("link type name"),
      syncCron: text("a cron expression such as 0 * * * *"),
      ...jiraSecrets,
    })
    .partial()
    .optional(),
  spira: z
    .strictObject({
      url: text(
        "Spira's REST root such as https://spira.example.com/Services/v7_0/RestService.svc/",
      ),
      projectId: z.int("expected Spira's numeric project id").positive(),
      user: text("the service account's user name"),
      requirementsSync: z.boolean("expected true or false"),
      syncCron: text("a cron expression such as 0 * * * *"),
      ...spiraSecrets,
    })
    .partial()
    .optional(),
  ticketCacheMinutes: z.int("expected a whole number of minutes").optional(),
  timeoutSeconds: z.int("expected a whole number of seconds").optional(),
});
export type IntegrationsFile = z.infer<typeof IntegrationsFileSchema>;

/** Each variable and the file setting standing for it (the variable's checks then apply). */
export const FILE_KEY_OF: Readonly<Record<string, string>> = {
  ASSAY_JIRA_URL: "jira.url",
  ASSAY_JIRA_DEPLOYMENT: "jira.deployment",
  ASSAY_JIRA_EMAIL: "jira.email",
  ASSAY_JIRA_PROJECT: "jira.project",
  ASSAY_JIRA_REQUIREMENTS_JQL: "jira.requirementsJql",
  ASSAY_JIRA_REQUIREMENT_TYPES: "jira.requirementTypes",
  ASSAY_JIRA_BUG_TYPES: "jira.bugTypes",
  ASSAY_JIRA_INCIDENT_JQL: "jira.incidentJql",
  ASSAY_JIRA_LINK_TYPES: "jira.linkTypes",
  ASSAY_JIRA_SYNC_CRON: "jira.syncCron",
  ASSAY_SPIRA_URL: "spira.url",
  ASSAY_SPIRA_PROJECT_ID: "spira.projectId",
  ASSAY_SPIRA_USER: "spira.user",
  ASSAY_SPIRA_REQUIREMENTS_SYNC: "spira.requirementsSync",
  ASSAY_SPIRA_SYNC_CRON: "spira.syncCron",
  ASSAY_TICKET_CACHE_MINUTES: "ticketCacheMinutes",
  ASSAY_TRACKER_TIMEOUT_SECONDS: "timeoutSeconds",
};

function valueAt(file: IntegrationsFile, key: string): unknown {
  let value: unknown = file;
  for (const part of key.split(".")) value = (value as Record<string, unknown> | undefined)?.[part];
  return value;
}

/**
 * The settings as variables: the file's values, then every variable that is set (and not empty)
 * over them. Lists become comma-separated, as the variables write them. `fromFile` names the
 * variables whose value came from the file.
 */
export function mergeFileIntoEnv(
  env: NodeJS.ProcessEnv,
  file: IntegrationsFile | undefined,
): { merged: NodeJS.ProcessEnv; fromFile: Set<string> } {
  const merged: NodeJS.ProcessEnv = { ...env };
  const fromFile = new Set<string>();
  if (!file) return { merged, fromFile };
  for (const [variable, key] of Object.entries(FILE_KEY_OF)) {
    const value = valueAt(file, key);
    if (value === undefined || (env[variable] !== undefined && env[variable] !== "")) continue;
    merged[variable] = Array.isArray(value) ? value.join(",") : String(value);
    fromFile.add(variable);
  }
  return { merged, fromFile };
}
