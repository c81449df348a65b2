import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";

/**
 * A small SpiraPlan REST v7 on 127.0.0.1 for the tests and the demo
 * (../shared/reference/integrations.md §2): /Services/v7_0/RestService.svc/, `username` and
 * `api-key` headers checked against its users, XML unless JSON is asked for, errors as 404 with
 * a text body (as Spira answers a denied access) and 405 for a verb a path does not take,
 * releases with ?active_only, and the requirements resources: the list and POST .../search
 * (RemoteFilter array) paged by the 1-based starting_row / number_of_rows (at most 500 rows a
 * call), one requirement, and its test-case coverage. Requirements are kept in hierarchy order
 * with IndentLevel (three letters a level) and Summary (has children) as Spira answers them.
 */

export const SPIRA_REST_ROOT = "/Services/v7_0/RestService.svc/";

export interface FakeRelease {
  ReleaseId: number;
  Name: string;
  VersionNumber: string;
  Active: boolean;
}

export interface FakeRequirement {
  RequirementId: number;
  Name: string;
  StatusName: string;
  RequirementTypeName: string;
  /** The parent requirement (added before it); absent: a top-level one. */
  parentId?: number;
  /** Test cases covering it (requirements/{id}/test-cases). */
  testCaseIds?: number[];
}

interface RemoteFilter {
  PropertyName?: string;
  IntValue?: number;
  StringValue?: string;
  MultiValue?: { Values?: number[] };
}

/** Three letters per level: AAA, AAB, ... as Spira's IndentLevel. */
const levelCode = (n: number) =>
  [26 * 26, 26, 1].map((d) => String.fromCharCode(65 + (Math.floor(n / d) % 26))).join("");

export class SpiraFake {
  /** username → api-key (the RSS token, braces included). */
  readonly users = new Map<string, string>();
  readonly releases = new Map<number, FakeRelease[]>();
  readonly requirements = new Map<number, FakeRequirement[]>();
  readonly calls: { path: string; username: string | undefined }[] = [];
  /** The demo's: any user name with any key is let in (users' profiles hold their own). */
  acceptAnyUser = false;
  /** The next N calls answer 500 with a text body (a Spira that is down). */
  failNext = 0;
  /** The next N calls answer 429 with Retry-After: 1. */
  rateLimitNext = 0;
  url = "";
  private server: Server | undefined;

  /** The base URL a client is given: up to the REST root. */
  get baseUrl(): string {
    return `${this.url}${SPIRA_REST_ROOT}`;
  }

  async start(port = 0): Promise<string> {
    this.server = createServer((request, response) => this.serve(request, response));
    await new Promise<void>((resolve) => this.server!.listen(port, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as { port: number }).port}`;
    return this.baseUrl;
  }

  async stop(): Promise<void> {
    await new Promise((resolve) => this.server?.close(resolve));
  }

  private serve(request: IncomingMessage, response: ServerResponse): void {
    const url = new URL(request.url ?? "/", "http://fake");
    const username = request.headers.username as string | undefined;
    this.calls.push({ path: url.pathname, username });
    const text = (status: number, body: string) => {
      response.writeHead(status, { "content-type": "text/plain" });
      response.end(body);
    };
    if (this.rateLimitNext > 0) {
      this.rateLimitNext--;
      response.writeHead(429, { "retry-after": "1", "content-type": "text/plain" });
      response.end("Too many requests");
      return;
    }
    const key = request.headers["api-key"];
    const known = this.acceptAnyUser || this.users.get(username ?? "") === key;
    if (!username || !key || !known) {
      text(404, "Access Denied: the username and api-key (RSS token) do not match a user.");
      return;
    }
    if (!url.pathname.startsWith(SPIRA_REST_ROOT)) {
      text(404, "Unable to locate requested resource");
      return;
    }
    const rest = url.pathname.slice(SPIRA_REST_ROOT.length);
    const route =
      /^projects\/(\d+)\/(releases|requirements)(?:\/(search|\d+)(?:\/(test-cases))?)?$/.exec(rest);
    if (!route) return text(404, "Unable to locate requested resource");
    const projectId = Number(route[1]);
    const allowed = route[3] === "search" ? "POST" : "GET";
    if (request.method !== allowed)
      return text(405, `Method not allowed: ${rest} takes ${allowed}`);
    if (this.failNext > 0) {
      this.failNext--;
      return text(500, "An internal error occurred: the database is not available.");
    }
    const answer = (rows: unknown) => this.answer(request, response, rows);
    if (route[2] === "releases") {
      const releases = this.releases.get(projectId);
      if (!releases || route[3]) return text(404, `Unable to locate project ${projectId}`);
      const activeOnly = url.searchParams.get("active_only") === "true";
      return answer(
        releases
          .filter((r) => !activeOnly || r.Active)
          .map((r, i) => ({
            ...r,
            FullName: `${r.Name} ${r.VersionNumber}`,
            IndentLevel: `AAA${String.fromCharCode(65 + (i % 26))}`,
          })),
      );
    }
    const all = this.requirements.get(projectId);
    if (!all) return text(404, `Unable to locate project ${projectId}`);
    const records = this.requirementRecords(all);
    if (route[3] && route[3] !== "search") {
      const id = Number(route[3]);
      const found = records.find((r) => r.RequirementId === id);
      if (!found) return text(404, `Unable to locate requested artifact: requirement ${id}`);
      const coverage = all.find((r) => r.RequirementId === id)?.testCaseIds ?? [];
      return answer(
        route[4] ? coverage.map((TestCaseId) => ({ RequirementId: id, TestCaseId })) : found,
      );
    }
    const start = Number(url.searchParams.get("starting_row") ?? "1");
    const count = Math.min(Number(url.searchParams.get("number_of_rows") ?? "500"), 500);
    if (!Number.isInteger(start) || start < 1)
      return text(404, "starting_row must be 1 or more (rows are numbered from 1)");
    if (!Number.isInteger(count) || count < 1)
      return text(404, "number_of_rows must be a number from 1 to 500");
    if (route[3] === "search") {
      void this.readFilters(request).then((filters) => {
        if (!filters) return text(404, "The body must be an array of RemoteFilter");
        const matching = records.filter((r) => filters.every((f) => matches(r, f)));
        answer(matching.slice(start - 1, start - 1 + count));
      });
      return;
    }
    return answer(records.slice(start - 1, start - 1 + count));
  }

  /** The requirements as Spira's REST answers them: IndentLevel and Summary computed. */
  private requirementRecords(all: readonly FakeRequirement[]) {
    const levels = new Map<number, string>();
    const children = new Map<number | undefined, number>();
    return all.map(({ parentId, testCaseIds, ...requirement }) => {
      const n = children.get(parentId) ?? 0;
      children.set(parentId, n + 1);
      const level = `${parentId === undefined ? "" : (levels.get(parentId) ?? "")}${levelCode(n)}`;
      levels.set(requirement.RequirementId, level);
      return {
        ...requirement,
        IndentLevel: level,
        Summary: all.some((other) => other.parentId === requirement.RequirementId),
        CoverageCountTotal: testCaseIds?.length ?? 0,
      };
    });
  }

  private async readFilters(request: IncomingMessage): Promise<RemoteFilter[] | undefined> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    try {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as unknown;
      return Array.isArray(body) ? (body as RemoteFilter[]) : undefined;
    } catch {
      return undefined;
    }
  }

  private answer(request: IncomingMessage, response: ServerResponse, rows: unknown): void {
    if (!String(request.headers.accept ?? "").includes("application/json")) {
      response.writeHead(200, { "content-type": "application/xml" });
      response.end("<ArrayOfRemoteObject/>");
      return;
    }
    response.writeHead(200, { "content-type": "application/json" });
    response.end(JSON.stringify(rows));
  }
}

/** One RemoteFilter (AND-ed with the others): an int, a string (contains) or a list of ints. */
function matches(record: Record<string, unknown>, filter: RemoteFilter): boolean {
  const value = record[filter.PropertyName ?? ""];
  if (filter.IntValue !== undefined) return value === filter.IntValue;
  if (filter.StringValue !== undefined)
    return String(value ?? "")
      .toLowerCase()
      .includes(filter.StringValue.toLowerCase());
  if (filter.MultiValue?.Values) return filter.MultiValue.Values.includes(Number(value));
  return true;
}
