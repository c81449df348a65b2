import type { JiraClient, JiraIssue } from "../integrations/jira.client.js";

/**
 * Incidents per release version: the configured incident JQL narrowed to the report's versions
 * with `fixVersion in (...)`, a few dozen versions per search instead of one search per version
 * (a project has hundreds), each issue counted under every one of its fix versions asked for.
 */

export interface IncidentCounts {
  count: number;
  closed: number;
  open: number;
}

/** Versions per search: keeps the JQL far below Jira's URL and JQL length limits. */
const VERSIONS_PER_SEARCH = 50;

/** A JQL string literal: quotes and backslashes escaped, so a version name stays one value. */
export function jqlString(text: string): string {
  return `"${text.replace(/(["\\])/g, "\\$1")}"`;
}

/**
 * Closed: Jira's status category is Done (a site's own status names vary); an answer without
 * the category falls back to the usual done names.
 */
export function isClosed(status: JiraIssue["fields"]["status"]): boolean {
  const category = (status as { statusCategory?: { key?: string } } | undefined)?.statusCategory;
  if (category?.key) return category.key === "done";
  return /^(done|closed|resolved)$/i.test(status?.name ?? "");
}

/** Counts `issues` under each of their fix versions that is in `versions`. */
export function countIncidents(
  issues: readonly JiraIssue[],
  versions: ReadonlySet<string>,
): Map<string, IncidentCounts> {
  const counts = new Map<string, IncidentCounts>();
  for (const issue of issues) {
    const closed = isClosed(issue.fields.status);
    for (const name of new Set((issue.fields.fixVersions ?? []).map((v) => v.name))) {
      if (!versions.has(name)) continue;
      const entry = counts.get(name) ?? { count: 0, closed: 0, open: 0 };
      entry.count++;
      if (closed) entry.closed++;
      else entry.open++;
      counts.set(name, entry);
    }
  }
  return counts;
}

/** The incidents of `versions` (names Jira knows: an unknown one makes Jira refuse the JQL). */
export async function incidentsByVersion(
  jira: JiraClient,
  incidentJql: string,
  versions: readonly string[],
): Promise<Map<string, IncidentCounts>> {
  const issues: JiraIssue[] = [];
  for (let i = 0; i < versions.length; i += VERSIONS_PER_SEARCH) {
    const chunk = versions.slice(i, i + VERSIONS_PER_SEARCH);
    const jql = `(${incidentJql}) AND fixVersion in (${chunk.map(jqlString).join(", ")})`;
    issues.push(...(await jira.search(jql, ["fixVersions", "status"])));
  }
  // An issue with two fix versions in different chunks is found twice: counted once per version.
  const unique = new Map(issues.map((issue) => [issue.key, issue]));
  return countIncidents([...unique.values()], new Set(versions));
}
