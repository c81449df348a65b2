import { z } from "zod";
import { envProblems } from "../../config-errors.js";

/**
 * The Nora Releases report's settings (docs/configuration.md "Nora Releases report"), from the
 * environment through config.ts: the JQL that selects incidents (narrowed per fixVersion by the
 * report) and the release notes' URL template.
 */

export interface ReleasesConfig {
  /** JQL of incidents, without ORDER BY; the report adds `AND fixVersion in (...)`. */
  incidentJql: string;
  /** A URL with `{version}` where the release version goes; undefined: no release notes link. */
  releaseNotesUrl: string | undefined;
}

export const DEFAULT_INCIDENT_JQL = "issuetype = Incident";

const VERSION_PLACEHOLDER = "{version}";

export const ReleasesEnvSchema = z.object({
  ASSAY_JIRA_INCIDENT_JQL: z
    .string()
    .trim()
    .min(1, "expected a JQL such as project = NXL AND issuetype = Incident")
    .max(2000, "expected a JQL of at most 2000 characters")
    .default(DEFAULT_INCIDENT_JQL),
  ASSAY_RELEASE_NOTES_URL: z
    .string()
    .refine(
      (text) => text.includes(VERSION_PLACEHOLDER),
      `expected a URL with ${VERSION_PLACEHOLDER} where the version goes, such as https://wiki.example.com/nora/release-notes/${VERSION_PLACEHOLDER}`,
    )
    .refine((text) => {
      try {
        return /^https?:$/.test(new URL(text.replace(VERSION_PLACEHOLDER, "1.0.0")).protocol);
      } catch {
        return false;
      }
    }, "expected an http(s) URL")
    .optional(),
});

export function readReleasesConfig(
  env: NodeJS.ProcessEnv,
): { config: ReleasesConfig } | { problems: string[] } {
  const parsed = ReleasesEnvSchema.safeParse(env);
  if (!parsed.success) return { problems: envProblems(parsed.error, env) };
  return {
    config: {
      // A trailing ORDER BY cannot be followed by the report's AND: it is dropped.
      incidentJql: parsed.data.ASSAY_JIRA_INCIDENT_JQL.replace(/\s+ORDER\s+BY\s[\s\S]*$/i, ""),
      releaseNotesUrl: parsed.data.ASSAY_RELEASE_NOTES_URL,
    },
  };
}

/** The release notes of `version`: the template with the version URL-encoded in its place. */
export function releaseNotesUrl(template: string | undefined, version: string): string | null {
  return template ? template.split(VERSION_PLACEHOLDER).join(encodeURIComponent(version)) : null;
}
