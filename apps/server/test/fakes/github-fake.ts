import { createServer, type IncomingMessage, type Server } from "node:http";

/**
 * A small GitHub REST API on 127.0.0.1 for workflow runs: POST .../actions/workflows/{wf}/dispatches
 * (200 with workflow_run_id when return_run_details is asked and `returnRunDetails` is on, else
 * 204), GET .../actions/workflows/{wf}/runs, GET .../actions/runs/{id}, POST .../runs/{id}/cancel.
 * GET .../actions/runs/{id}/jobs and GET .../actions/jobs/{id}/logs (302 to the plain-text log
 * at a signed URL, as GitHub redirects to its blob storage; 404 while the job runs).
 * The run's name is the workflow's run-name: "assay build <assay_build_id>".
 */

export interface FakeJob {
  id: number;
  name: string;
  status: string;
  conclusion: string | null;
  log: string;
}

export interface FakeRun {
  id: number;
  display_title: string;
  status: string;
  conclusion: string | null;
  inputs: Record<string, string>;
  ref: string;
  updated_at: string;
  jobs: FakeJob[];
}

export class GitHubFake {
  readonly runs = new Map<number, FakeRun>();
  readonly requests: { method: string; path: string; body: unknown; authorization?: string }[] = [];
  /** The Authorization header each signed log download came with (none expected). */
  readonly blobAuthorizations: (string | undefined)[] = [];
  /** github.com answers dispatches with run details; older GitHub Enterprise Server with 204. */
  returnRunDetails = true;
  /** The next N requests answer 403 with x-ratelimit-remaining: 0. */
  rateLimitNext = 0;
  private nextId = 9000;
  private server: Server | undefined;
  url = "";

  async start(): Promise<void> {
    this.server = createServer((request, response) => {
      void this.handle(request).then(([status, body, headers]) => {
        response.writeHead(status, { "content-type": "application/json", ...headers });
        if (typeof body === "string") response.end(body);
        else response.end(body === undefined ? "" : JSON.stringify(body));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as { port: number }).port}`;
  }

  async stop(): Promise<void> {
    await new Promise((resolve) => this.server?.close(resolve));
  }

  private async handle(
    request: IncomingMessage,
  ): Promise<[number, unknown, Record<string, string>?]> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString("utf8");
    const body = text ? (JSON.parse(text) as Record<string, unknown>) : undefined;
    const path = request.url ?? "";
    // The signed log URL a job's logs redirect to: no token (fetch does not send it there).
    const blob = /^\/_blobs\/job-(\d+)\.txt\?sig=signed$/.exec(path);
    if (blob) {
      this.blobAuthorizations.push(request.headers.authorization);
      const job = [...this.runs.values()]
        .flatMap((run) => run.jobs)
        .find((j) => j.id === Number(blob[1]));
      return job ? [200, job.log, { "content-type": "text/plain" }] : [404, "Not Found"];
    }
    this.requests.push({
      method: request.method ?? "",
      path,
      body,
      authorization: request.headers.authorization,
    });
    if (request.headers.authorization !== "Bearer ghp_test")
      return [401, { message: "Bad credentials" }];
    if (this.rateLimitNext > 0) {
      this.rateLimitNext--;
      return [403, { message: "API rate limit exceeded" }, { "x-ratelimit-remaining": "0" }];
    }
    const dispatch = /^\/repos\/acme\/ui-tests\/actions\/workflows\/assay\.yml\/dispatches$/.exec(
      path,
    );
    if (dispatch && request.method === "POST") {
      const inputs = (body?.inputs ?? {}) as Record<string, string>;
      if (body?.ref === "no-such-branch")
        return [422, { message: "No ref found for: no-such-branch" }];
      const run: FakeRun = {
        id: this.nextId++,
        display_title: `assay build ${inputs.assay_build_id}`,
        status: "queued",
        conclusion: null,
        inputs,
        ref: String(body?.ref),
        updated_at: new Date().toISOString(),
        jobs: [],
      };
      this.runs.set(run.id, run);
      if (this.returnRunDetails && body?.return_run_details === true) {
        return [
          200,
          {
            workflow_run_id: run.id,
            run_url: `${this.url}/repos/acme/ui-tests/actions/runs/${run.id}`,
            html_url: `https://github.com/acme/ui-tests/actions/runs/${run.id}`,
          },
        ];
      }
      return [204, undefined];
    }
    if (
      path.startsWith("/repos/acme/ui-tests/actions/workflows/assay.yml/runs") &&
      request.method === "GET"
    ) {
      const runs = [...this.runs.values()].reverse().map((run) => ({
        ...run,
        html_url: `https://github.com/acme/ui-tests/actions/runs/${run.id}`,
      }));
      return [200, { total_count: runs.length, workflow_runs: runs }];
    }
    const jobs = /^\/repos\/acme\/ui-tests\/actions\/runs\/(\d+)\/jobs(\?.*)?$/.exec(path);
    if (jobs) {
      const run = this.runs.get(Number(jobs[1]));
      if (!run) return [404, { message: "Not Found" }];
      const list = run.jobs.map(({ log: _log, ...job }) => ({ ...job, run_id: run.id }));
      return [200, { total_count: list.length, jobs: list }];
    }
    const jobLog = /^\/repos\/acme\/ui-tests\/actions\/jobs\/(\d+)\/logs$/.exec(path);
    if (jobLog) {
      const job = [...this.runs.values()]
        .flatMap((run) => run.jobs)
        .find((j) => j.id === Number(jobLog[1]));
      if (!job || job.status !== "completed") return [404, { message: "Not Found" }];
      return [302, undefined, { location: `${this.url}/_blobs/job-${job.id}.txt?sig=signed` }];
    }
    const one = /^\/repos\/acme\/ui-tests\/actions\/runs\/(\d+)(\/cancel)?$/.exec(path);
    if (one) {
      const run = this.runs.get(Number(one[1]));
      if (!run) return [404, { message: "Not Found" }];
      if (one[2]) {
        if (run.status === "completed")
          return [409, { message: "Cannot cancel a workflow run that is completed." }];
        run.status = "completed";
        run.conclusion = "cancelled";
        return [202, {}];
      }
      return [200, { ...run, html_url: `https://github.com/acme/ui-tests/actions/runs/${run.id}` }];
    }
    return [404, { message: "Not Found" }];
  }
}
