import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";

/**
 * A small SpiraPlan REST v7 on 127.0.0.1 for the tests and the demo
 * (../shared/reference/integrations.md §2): /Services/v7_0/RestService.svc/, `username` and
 * `api-key` headers checked against its users, XML unless JSON is asked for, errors as 404 with
 * a text body (as Spira answers a denied access), releases with ?active_only and requirements
 * paged by the 1-based starting_row / number_of_rows.
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
}

export class SpiraFake {
  /** username → api-key (the RSS token, braces included). */
  readonly users = new Map<string, string>();
  readonly releases = new Map<number, FakeRelease[]>();
  readonly requirements = new Map<number, FakeRequirement[]>();
  readonly calls: { path: string; username: string | undefined }[] = [];
  /** The demo's: any user name with any key is let in (users' profiles hold their own). */
  acceptAnyUser = false;
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
    const route = /^projects\/(\d+)\/(releases|requirements)$/.exec(rest);
    const projectId = Number(route?.[1]);
    if (!route || request.method !== "GET") {
      text(404, "Unable to locate requested resource");
      return;
    }
    let rows: unknown[];
    if (route[2] === "releases") {
      const releases = this.releases.get(projectId);
      if (!releases) return text(404, `Unable to locate project ${projectId}`);
      const activeOnly = url.searchParams.get("active_only") === "true";
      rows = releases
        .filter((r) => !activeOnly || r.Active)
        .map((r, i) => ({
          ...r,
          FullName: `${r.Name} ${r.VersionNumber}`,
          IndentLevel: `AAA${String.fromCharCode(65 + (i % 26))}`,
        }));
    } else {
      const all = this.requirements.get(projectId);
      if (!all) return text(404, `Unable to locate project ${projectId}`);
      const start = Number(url.searchParams.get("starting_row") ?? "1");
      const count = Math.min(Number(url.searchParams.get("number_of_rows") ?? "500"), 500);
      if (!Number.isInteger(start) || start < 1)
        return text(404, "starting_row must be 1 or more (rows are numbered from 1)");
      rows = all.slice(start - 1, start - 1 + count);
    }
    if (!String(request.headers.accept ?? "").includes("application/json")) {
      response.writeHead(200, { "content-type": "application/xml" });
      response.end("<ArrayOfRemoteObject/>");
      return;
    }
    response.writeHead(200, { "content-type": "application/json" });
    response.end(JSON.stringify(rows));
  }
}
