import { z } from "zod";
import { FILE_KEY_OF, mergeFileIntoEnv, type IntegrationsFile } from "./integrations-file.js";
import type { JiraSettings } from "./jira.client.js";
import type { SpiraSettings } from "./spira.client.js";

/**
 * Jira and Spira settings, from the environment over assay.config.yaml's `integrations:`
 * (integrations-file.ts; docs/integrations.md). Unset ASSAY_JIRA_URL /
 * ASSAY_SPIRA_URL: the tracker is not configured, and with ASSAY_DEMO the demo starts the
 * built-in fakes (fakes/) on this machine instead, so the screens show working data. Tokens are
 * read here only and never logged or shown.
 */

export interface JiraConfig extends JiraSettings {
  /** JQL selecting the requirements the matrix syncs; absent: requirements come from imports. */
  requirementsJql: string | undefined;
  /** Issue types a synced requirement may have; empty: whatever the JQL selects. */
  requirementTypes: string[];
  /** Issue types counted as bugs among a requirement's links. */
  bugTypes: string[];
  /** Link type names through which a bug counts; empty: any link. */
  linkTypes: string[];
  /** JQL of the incidents of a release (the Nora Releases report adds its fixVersion). */
  incidentJql: string | undefined;
  /** pg-boss cron of the requirements sync. */
  syncCron: string;
}

export interface SpiraConfig extends SpiraSettings {
  /** The matrix's requirements come from this Spira project (instead of Jira or a file). */
  requirementsSync: boolean;
  syncCron: string;
}

export interface IntegrationsConfig {
  jira: JiraConfig | undefined;
  spira: SpiraConfig | undefined;
  /** How long a ticket's looked-up summary and status are served from the cache. */
  ticketTtlMs: number;
  timeoutMs: number;
}

export const INTEGRATION_SECRETS = ["ASSAY_JIRA_TOKEN", "ASSAY_SPIRA_API_KEY"] as const;

const url = (example: string) =>
  z.url({ protocol: /^https?$/, error: `expected an http(s) URL such as ${example}` }).optional();
const cron = z.string().min(9, "expected a cron expression such as 0 * * * *").default("0 * * * *");
const list = (fallback: string) => z.string().default(fallback);
const splitList = (value: string) =>
  value
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean);
const minutes = (max: number, fallback: number) =>
  z.coerce
    .number({ error: `expected a whole number of minutes from 1 to ${max}` })
    .int(`expected a whole number of minutes from 1 to ${max}`)
    .min(1, `expected a whole number of minutes from 1 to ${max}`)
    .max(max, `expected a whole number of minutes from 1 to ${max}`)
    .default(fallback);

export const IntegrationsEnvSchema = z.object({
  ASSAY_JIRA_URL: url("https://example.atlassian.net"),
  ASSAY_JIRA_DEPLOYMENT: z
    .enum(["cloud", "datacenter"], { error: "expected cloud or datacenter" })
    .default("cloud"),
  ASSAY_JIRA_EMAIL: z.email("expected the Jira account's e-mail address").optional(),
  ASSAY_JIRA_TOKEN: z
    .string()
    .min(1, "expected an API token (Cloud) or a personal access token")
    .optional(),
  ASSAY_JIRA_PROJECT: z
    .string()
    .regex(/^[A-Z][A-Z0-9_]*$/, "expected a project key such as NXL")
    .optional(),
  ASSAY_JIRA_REQUIREMENTS_JQL: z.string().min(1).max(2000).optional(),
  ASSAY_JIRA_REQUIREMENT_TYPES: list(""),
  ASSAY_JIRA_BUG_TYPES: z.string().min(1).default("Bug"),
  ASSAY_JIRA_LINK_TYPES: list(""),
  ASSAY_JIRA_INCIDENT_JQL: z.string().min(1).max(2000).optional(),
  ASSAY_JIRA_SYNC_CRON: cron,
  ASSAY_SPIRA_URL: url("https://spira.example.com/Services/v7_0/RestService.svc/"),
  ASSAY_SPIRA_PROJECT_ID: z.coerce
    .number({ error: "expected Spira's numeric project id" })
    .int("expected Spira's numeric project id")
    .positive("expected Spira's numeric project id")
    .optional(),
  ASSAY_SPIRA_USER: z.string().min(1).optional(),
  ASSAY_SPIRA_API_KEY: z.string().min(1).optional(),
  ASSAY_SPIRA_REQUIREMENTS_SYNC: z
    .enum(["true", "false"], { error: "expected true or false" })
    .default("false")
    .transform((v) => v === "true"),
  ASSAY_SPIRA_SYNC_CRON: cron,
  ASSAY_TICKET_CACHE_MINUTES: minutes(10080, 60),
  ASSAY_TRACKER_TIMEOUT_SECONDS: z.coerce
    .number({ error: "expected a whole number of seconds from 1 to 300" })
    .int("expected a whole number of seconds from 1 to 300")
    .min(1, "expected a whole number of seconds from 1 to 300")
    .max(300, "expected a whole number of seconds from 1 to 300")
    .default(20),
});

/**
 * The settings, or one line per bad or missing setting (a secret's value is never quoted). `env`
 * holds the secrets already read (config.ts resolves NAME_FILE); `file` is the config file's
 * `integrations:` key, which every variable that is set overrides.
 */
export function readIntegrationsConfig(
  env: NodeJS.ProcessEnv,
  file?: IntegrationsFile,
): { config: IntegrationsConfig } | { problems: string[] } {
  const { merged, fromFile } = mergeFileIntoEnv(env, file);
  const parsed = IntegrationsEnvSchema.safeParse(merged);
  if (!parsed.success) {
    return {
      problems: parsed.error.issues.map((issue) => {
        const key = String(issue.path[0]);
        const secret = (INTEGRATION_SECRETS as readonly string[]).includes(key);
        const where = fromFile.has(key)
          ? `assay.config.yaml: integrations.${FILE_KEY_OF[key]}`
          : key;
        return `${where}: ${issue.message}${secret ? "" : `, got ${JSON.stringify(merged[key])}`}`;
      }),
    };
  }
  const e = parsed.data;
  const timeoutMs = e.ASSAY_TRACKER_TIMEOUT_SECONDS * 1000;
  const problems: string[] = [];
  if (e.ASSAY_JIRA_URL && !e.ASSAY_JIRA_TOKEN)
    problems.push(
      "ASSAY_JIRA_TOKEN: required when ASSAY_JIRA_URL is set (an API token or a personal access token)",
    );
  if (e.ASSAY_JIRA_URL && e.ASSAY_JIRA_DEPLOYMENT === "cloud" && !e.ASSAY_JIRA_EMAIL)
    problems.push("ASSAY_JIRA_EMAIL: required for Jira Cloud (Basic auth is e-mail + API token)");
  if (e.ASSAY_SPIRA_URL && !e.ASSAY_SPIRA_PROJECT_ID)
    problems.push("ASSAY_SPIRA_PROJECT_ID: required when ASSAY_SPIRA_URL is set");
  if (e.ASSAY_SPIRA_REQUIREMENTS_SYNC) {
    if (!e.ASSAY_SPIRA_URL)
      problems.push(
        "ASSAY_SPIRA_REQUIREMENTS_SYNC: needs ASSAY_SPIRA_URL (the Spira to sync from)",
      );
    if (!e.ASSAY_SPIRA_USER || !e.ASSAY_SPIRA_API_KEY)
      problems.push(
        "ASSAY_SPIRA_REQUIREMENTS_SYNC: the sync reads with the service account: set ASSAY_SPIRA_USER and ASSAY_SPIRA_API_KEY (or ASSAY_SPIRA_API_KEY_FILE)",
      );
    if (e.ASSAY_JIRA_URL && e.ASSAY_JIRA_REQUIREMENTS_JQL)
      problems.push(
        "ASSAY_SPIRA_REQUIREMENTS_SYNC: the matrix holds one set of requirements; sync them from Jira (ASSAY_JIRA_REQUIREMENTS_JQL) or from Spira, not both",
      );
  }
  if (problems.length > 0) return { problems };
  return {
    config: {
      jira: e.ASSAY_JIRA_URL
        ? {
            baseUrl: e.ASSAY_JIRA_URL,
            deployment: e.ASSAY_JIRA_DEPLOYMENT,
            email: e.ASSAY_JIRA_EMAIL,
            token: e.ASSAY_JIRA_TOKEN ?? "",
            project: e.ASSAY_JIRA_PROJECT,
            timeoutMs,
            requirementsJql: e.ASSAY_JIRA_REQUIREMENTS_JQL,
            requirementTypes: splitList(e.ASSAY_JIRA_REQUIREMENT_TYPES),
            bugTypes: splitList(e.ASSAY_JIRA_BUG_TYPES),
            linkTypes: splitList(e.ASSAY_JIRA_LINK_TYPES),
            incidentJql: e.ASSAY_JIRA_INCIDENT_JQL,
            syncCron: e.ASSAY_JIRA_SYNC_CRON,
          }
        : undefined,
      spira:
        e.ASSAY_SPIRA_URL && e.ASSAY_SPIRA_PROJECT_ID
          ? {
              baseUrl: e.ASSAY_SPIRA_URL,
              projectId: e.ASSAY_SPIRA_PROJECT_ID,
              serviceUser: e.ASSAY_SPIRA_USER,
              serviceApiKey: e.ASSAY_SPIRA_API_KEY,
              timeoutMs,
              requirementsSync: e.ASSAY_SPIRA_REQUIREMENTS_SYNC,
              syncCron: e.ASSAY_SPIRA_SYNC_CRON,
            }
          : undefined,
      ticketTtlMs: e.ASSAY_TICKET_CACHE_MINUTES * 60_000,
      timeoutMs,
    },
  };
}
