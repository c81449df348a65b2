import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";

/**
 * A small Jira on 127.0.0.1 for the tests and the demo, speaking what Assay relies on
 * (../shared/reference/integrations.md §1): Basic (Cloud) or Bearer (Data Center) auth, the
 * enhanced POST /rest/api/3/search/jql with nextPageToken (the old /search answers 410 on
 * Cloud), Data Center's /rest/api/2/search with startAt and its 400 on an unknown key, the bulk
 * fetch (≤100 keys, unknown ones left out), project versions, {errorMessages} bodies and 429
 * with Retry-After. Its JQL is the subset Assay's defaults use, joined with AND (grouping
 * parentheses allowed).
 */

export interface FakeIssue {
  key: string;
  summary: string;
  status: string;
  issuetype: string;
  fixVersions?: string[];
  /** The summary of the issue's parent (its epic). */
  epic?: string;
  /** Issues linked to this one: "outward" means this issue <type.outward> that one. */
  links?: { type: string; direction: "inward" | "outward"; key: string }[];
}

export interface FakeVersion {
  name: string;
  released: boolean;
  releaseDate?: string;
}

export interface JiraFakeOptions {
  deployment: "cloud" | "datacenter";
  email?: string;
  token: string;
}

type Answer = [number, unknown, Record<string, string>?];

const LINK_TYPES: Record<string, { inward: string; outward: string }> = {
  Relates: { inward: "relates to", outward: "relates to" },
  Blocks: { inward: "is blocked by", outward: "blocks" },
  Tests: { inward: "is tested by", outward: "tests" },
};

const unquote = (text: string) => text.trim().replace(/^"(.*)"$/, "$1");
const list = (text: string) => text.split(",").map(unquote).filter(Boolean);
const parens = (text: string, char: string) => text.split(char).length - 1;
/** A clause without the grouping parentheses of `(a AND b) AND c` (AND only: no OR here). */
function ungroup(clause: string): string {
  let text = clause.trim();
  while (text.startsWith("(")) text = text.slice(1).trim();
  while (text.endsWith(")") && parens(text, ")") > parens(text, "("))
    text = text.slice(0, -1).trim();
  return text;
}

export class JiraFake {
  readonly issues = new Map<string, FakeIssue>();
  readonly versions = new Map<string, FakeVersion[]>();
  readonly calls: { method: string; path: string; body: unknown }[] = [];
  /** The next N calls answer 429 with this Retry-After (seconds). */
  rateLimitNext = 0;
  retryAfter = "1";
  /** The next N calls answer 500 (a sync must keep its last good data). */
  failNext = 0;
  url = "";
  private server: Server | undefined;

  constructor(private readonly options: JiraFakeOptions) {}

  get api(): string {
    return this.options.deployment === "cloud" ? "/rest/api/3" : "/rest/api/2";
  }

  add(...issues: FakeIssue[]): this {
    for (const issue of issues) this.issues.set(issue.key.toUpperCase(), issue);
    return this;
  }

  async start(port = 0): Promise<string> {
    this.server = createServer((request, response) => void this.serve(request, response));
    await new Promise<void>((resolve) => this.server!.listen(port, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as { port: number }).port}`;
    return this.url;
  }

  async stop(): Promise<void> {
    await new Promise((resolve) => this.server?.close(resolve));
  }

  count(path: string): number {
    return this.calls.filter((call) => call.path === path).length;
  }

  private async serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString("utf8");
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    const url = new URL(request.url ?? "/", "http://fake");
    this.calls.push({ method: request.method ?? "GET", path: url.pathname, body });
    const [status, answer, headers] = this.answer(request, url, body);
    response.writeHead(status, { "content-type": "application/json", ...headers });
    response.end(JSON.stringify(answer));
  }

  private authorized(header: string | undefined): boolean {
    if (this.options.deployment === "datacenter") return header === `Bearer ${this.options.token}`;
    const basic = Buffer.from(`${this.options.email}:${this.options.token}`).toString("base64");
    return header === `Basic ${basic}`;
  }

  private answer(request: IncomingMessage, url: URL, body: unknown): Answer {
    if (!this.authorized(request.headers.authorization))
      return [401, { errorMessages: ["You are not authenticated. Authentication required."] }];
    if (this.rateLimitNext > 0) {
      this.rateLimitNext--;
      return [429, { errorMessages: ["Rate limit exceeded."] }, { "retry-after": this.retryAfter }];
    }
    if (this.failNext > 0) {
      this.failNext--;
      return [500, { errorMessages: ["Internal server error"] }];
    }
    const path = url.pathname;
    const method = request.method;
    const versions = new RegExp(`^${this.api}/project/([^/]+)/versions$`).exec(path);
    if (method === "GET" && versions) {
      const project = decodeURIComponent(versions[1] ?? "");
      const found = this.versions.get(project);
      if (!found)
        return [404, { errorMessages: [`No project could be found with key '${project}'.`] }];
      return [200, found.map((v, i) => ({ id: String(10000 + i), ...v, archived: false }))];
    }
    if (this.options.deployment === "cloud") {
      if (path === "/rest/api/3/search" || path === "/rest/api/2/search")
        return [
          410,
          {
            errorMessages: [
              "The requested API has been removed. Please migrate to the /rest/api/3/search/jql API.",
            ],
          },
        ];
      if (method === "POST" && path === "/rest/api/3/search/jql") return this.searchJql(body);
      if (method === "POST" && path === "/rest/api/3/issue/bulkfetch") return this.bulkFetch(body);
    } else if (method === "POST" && path === "/rest/api/2/search") {
      return this.searchDc(body);
    }
    return [404, { errorMessages: [`No route ${method} ${path}`] }];
  }

  private searchJql(body: unknown): Answer {
    const request = (body ?? {}) as {
      jql?: string;
      fields?: string[];
      maxResults?: number;
      nextPageToken?: string;
    };
    const selected = this.select(request.jql);
    if ("error" in selected) return selected.error;
    const found = selected.issues;
    const start = request.nextPageToken
      ? Number(Buffer.from(request.nextPageToken, "base64url").toString())
      : 0;
    const size = Math.min(request.maxResults ?? 50, 5000);
    const page = found.slice(start, start + size);
    const isLast = start + size >= found.length;
    return [
      200,
      {
        issues: page.map((issue) => this.shape(issue, request.fields)),
        isLast,
        ...(isLast
          ? {}
          : { nextPageToken: Buffer.from(String(start + size)).toString("base64url") }),
      },
    ];
  }

  private searchDc(body: unknown): Answer {
    const request = (body ?? {}) as {
      jql?: string;
      fields?: string[];
      maxResults?: number;
      startAt?: number;
    };
    const selected = this.select(request.jql);
    if ("error" in selected) return selected.error;
    const found = selected.issues;
    const startAt = request.startAt ?? 0;
    const size = Math.min(request.maxResults ?? 50, 1000);
    return [
      200,
      {
        startAt,
        maxResults: size,
        total: found.length,
        issues: found
          .slice(startAt, startAt + size)
          .map((issue) => this.shape(issue, request.fields)),
      },
    ];
  }

  private bulkFetch(body: unknown): Answer {
    const request = (body ?? {}) as { issueIdsOrKeys?: string[]; fields?: string[] };
    const keys = request.issueIdsOrKeys ?? [];
    if (keys.length === 0 || keys.length > 100)
      return [400, { errorMessages: ["issueIdsOrKeys must hold 1 to 100 issue ids or keys."] }];
    const issues = keys
      .map((key) => this.issues.get(key.toUpperCase()))
      .filter((i) => i !== undefined);
    return [
      200,
      { issues: issues.map((issue) => this.shape(issue, request.fields)), issueErrors: [] },
    ];
  }

  /** The issues a JQL of `clause AND clause ...` selects, or a 400 as Jira words it. */
  private select(jql: string | undefined): { issues: FakeIssue[] } | { error: Answer } {
    const query = (jql ?? "").replace(/\s+ORDER BY .*$/i, "").trim();
    if (!query)
      return {
        error: [
          400,
          {
            errorMessages: [
              "Unbounded JQL queries are not allowed here. Please add a search restriction to your query.",
            ],
          },
        ],
      };
    let found = [...this.issues.values()];
    for (const clause of query.split(/\s+AND\s+/i).map(ungroup)) {
      const m = /^(\w+)\s*(=|!=|in|not in)\s*(.+)$/i.exec(clause);
      if (!m)
        return {
          error: [
            400,
            { errorMessages: [`Error in the JQL Query: '${clause}' is not understood.`] },
          ],
        };
      const field = (m[1] ?? "").toLowerCase();
      const op = (m[2] ?? "").toLowerCase();
      const raw = m[3] ?? "";
      const values = op.includes("in") ? list(raw.replace(/^\(|\)$/g, "")) : [unquote(raw)];
      const wanted = new Set(values.map((v) => v.toLowerCase()));
      if (field === "key" && this.options.deployment === "datacenter") {
        const unknown = values.find((v) => !this.issues.has(v.toUpperCase()));
        if (unknown)
          return {
            error: [
              400,
              { errorMessages: [`An issue with key '${unknown}' does not exist for field 'key'.`] },
            ],
          };
      }
      const valueOf: Record<string, (i: FakeIssue) => string[]> = {
        key: (i) => [i.key],
        project: (i) => [i.key.split("-")[0] ?? ""],
        issuetype: (i) => [i.issuetype],
        status: (i) => [i.status],
        statuscategory: (i) => [/^(done|closed|resolved)$/i.test(i.status) ? "done" : "to do"],
        fixversion: (i) => i.fixVersions ?? [],
      };
      const read = valueOf[field];
      if (!read)
        return {
          error: [
            400,
            {
              errorMessages: [
                `Field '${m[1]}' does not exist or you do not have permission to view it.`,
              ],
            },
          ],
        };
      const negate = op.startsWith("not") || op === "!=";
      found = found.filter(
        (issue) => read(issue).some((v) => wanted.has(v.toLowerCase())) !== negate,
      );
    }
    return { issues: found.sort((a, b) => a.key.localeCompare(b.key, "en", { numeric: true })) };
  }

  private shape(issue: FakeIssue, fields: string[] | undefined) {
    const want = (name: string) => fields?.includes(name) || fields?.includes("*all");
    const id = String(10000 + [...this.issues.keys()].indexOf(issue.key.toUpperCase()));
    const brief = (key: string) => {
      const other = this.issues.get(key.toUpperCase());
      return {
        id: "0",
        key,
        fields: {
          summary: other?.summary ?? "",
          status: { name: other?.status ?? "" },
          issuetype: { name: other?.issuetype ?? "" },
        },
      };
    };
    return {
      id,
      key: issue.key,
      self: `${this.url}${this.api}/issue/${id}`,
      fields: {
        ...(want("summary") ? { summary: issue.summary } : {}),
        ...(want("status") ? { status: { name: issue.status } } : {}),
        ...(want("issuetype") ? { issuetype: { name: issue.issuetype } } : {}),
        ...(want("fixVersions")
          ? { fixVersions: (issue.fixVersions ?? []).map((name) => ({ name })) }
          : {}),
        ...(want("parent") && issue.epic
          ? { parent: { key: "EPIC", fields: { summary: issue.epic } } }
          : {}),
        ...(want("issuelinks")
          ? {
              issuelinks: (issue.links ?? []).map((link) => ({
                type: {
                  name: link.type,
                  ...(LINK_TYPES[link.type] ?? { inward: link.type, outward: link.type }),
                },
                [link.direction === "outward" ? "outwardIssue" : "inwardIssue"]: brief(link.key),
              })),
            }
          : {}),
      },
    };
  }
}
