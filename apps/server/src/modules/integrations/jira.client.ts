import { TrackerHttp, type TrackerHttpOptions } from "./tracker-http.js";

/**
 * Jira's REST API as Assay uses it (../shared/reference/integrations.md §1): Cloud (v3, e-mail
 * + API token as Basic) searches with /search/jql and nextPageToken; Data Center (v2, a personal
 * access token as Bearer) keeps /search with startAt. Keys are looked up with the bulk fetch,
 * which leaves out unknown keys instead of failing the whole call as `key in (...)` does.
 */

export interface JiraSettings {
  baseUrl: string;
  deployment: "cloud" | "datacenter";
  /** Cloud: the account's e-mail; Data Center: unused. */
  email: string | undefined;
  /** Cloud: an API token; Data Center: a personal access token. */
  token: string;
  /** The project whose versions are the release list. */
  project: string | undefined;
  timeoutMs: number;
}

export interface JiraIssue {
  id: string;
  key: string;
  fields: {
    summary?: string;
    status?: { name?: string };
    issuetype?: { name?: string };
    fixVersions?: { name: string }[];
    issuelinks?: JiraIssueLink[];
    [field: string]: unknown;
  };
}

export interface JiraIssueLink {
  type: { name: string; inward: string; outward: string };
  inwardIssue?: JiraLinkedIssue;
  outwardIssue?: JiraLinkedIssue;
}

export interface JiraLinkedIssue {
  key: string;
  fields?: { summary?: string; status?: { name?: string }; issuetype?: { name?: string } };
}

export interface JiraVersion {
  id: string;
  name: string;
  released?: boolean;
  archived?: boolean;
  releaseDate?: string;
}

/** Keys per bulk fetch (Jira's limit). */
export const BULK_FETCH_MAX = 100;
const PAGE_SIZE = 100;

export class JiraClient {
  private readonly http: TrackerHttp;
  private readonly api: string;

  constructor(
    readonly settings: JiraSettings,
    options: Partial<Pick<TrackerHttpOptions, "sleep" | "maxRetries" | "maxRetryWaitMs">> = {},
  ) {
    const auth =
      settings.deployment === "cloud"
        ? `Basic ${Buffer.from(`${settings.email ?? ""}:${settings.token}`).toString("base64")}`
        : `Bearer ${settings.token}`;
    this.api = settings.deployment === "cloud" ? "rest/api/3" : "rest/api/2";
    this.http = new TrackerHttp({
      tracker: "Jira",
      baseUrl: settings.baseUrl,
      headers: { authorization: auth },
      timeoutMs: settings.timeoutMs,
      maxRetries: options.maxRetries ?? 4,
      maxRetryWaitMs: options.maxRetryWaitMs ?? 60_000,
      sleep: options.sleep,
    });
  }

  get origin(): string {
    return this.http.origin;
  }

  /** The issues of `keys` (any number; 100 a call), each with `fields`. Unknown keys are absent. */
  async issuesByKey(keys: readonly string[], fields: string[]): Promise<JiraIssue[]> {
    const issues: JiraIssue[] = [];
    for (let i = 0; i < keys.length; i += BULK_FETCH_MAX) {
      const chunk = keys.slice(i, i + BULK_FETCH_MAX);
      if (this.settings.deployment === "cloud") {
        const page = await this.http.json<{ issues?: JiraIssue[] }>(
          "POST",
          `${this.api}/issue/bulkfetch`,
          { issueIdsOrKeys: chunk, fields },
        );
        issues.push(...(page.issues ?? []));
      } else {
        // Data Center has no bulk fetch; its search fails on an unknown key, so it is quoted and
        // searched per chunk with the keys it rejects removed.
        issues.push(...(await this.searchKeysDc(chunk, fields)));
      }
    }
    return issues;
  }

  private async searchKeysDc(keys: string[], fields: string[]): Promise<JiraIssue[]> {
    let remaining = [...keys];
    for (let tries = 0; remaining.length > 0 && tries <= keys.length; tries++) {
      try {
        return await this.search(`key in (${remaining.map((k) => `"${k}"`).join(",")})`, fields);
      } catch (error) {
        const bad = /key '([^']+)'/.exec((error as Error).message)?.[1];
        if (!bad || !remaining.includes(bad)) throw error;
        remaining = remaining.filter((key) => key !== bad);
      }
    }
    return [];
  }

  /** Every issue `jql` selects; `onPage` hears the count so far (a sync shows its progress). */
  async search(
    jql: string,
    fields: string[],
    onPage?: (fetched: number) => void | Promise<void>,
  ): Promise<JiraIssue[]> {
    const issues: JiraIssue[] = [];
    if (this.settings.deployment === "cloud") {
      let nextPageToken: string | undefined;
      for (;;) {
        const page = await this.http.json<{
          issues?: JiraIssue[];
          nextPageToken?: string | null;
          isLast?: boolean;
        }>("POST", `${this.api}/search/jql`, {
          jql,
          fields,
          maxResults: PAGE_SIZE,
          ...(nextPageToken ? { nextPageToken } : {}),
        });
        issues.push(...(page.issues ?? []));
        await onPage?.(issues.length);
        if (page.isLast === true || !page.nextPageToken) return issues;
        nextPageToken = page.nextPageToken;
      }
    }
    for (let startAt = 0; ;) {
      const page = await this.http.json<{ issues?: JiraIssue[]; total?: number }>(
        "POST",
        `${this.api}/search`,
        { jql, fields, startAt, maxResults: PAGE_SIZE },
      );
      const got = page.issues ?? [];
      issues.push(...got);
      await onPage?.(issues.length);
      startAt += got.length;
      if (got.length === 0 || startAt >= (page.total ?? 0)) return issues;
    }
  }

  /** The project's versions (an unpaginated array in both deployments). */
  async versions(project: string): Promise<JiraVersion[]> {
    return this.http.json<JiraVersion[]>(
      "GET",
      `${this.api}/project/${encodeURIComponent(project)}/versions`,
    );
  }
}
