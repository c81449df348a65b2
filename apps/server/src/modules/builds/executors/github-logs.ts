import type { RemoteLog } from "../../../db/schema.js";
import type { LogText, RemoteLogReader } from "./cloudwatch-logs.js";

interface Job {
  id: number;
  name?: string;
  status?: string;
}

/** One request to GitHub's REST API (the executor's, with its token and API version). */
export type GitHubCall = (
  method: string,
  path: string,
  options?: { redirect?: "manual" },
) => Promise<Response>;

/**
 * A GitHub Actions run's log, job by job: GET .../actions/runs/{id}/jobs, then each finished job's
 * GET .../actions/jobs/{job_id}/logs, a redirect to the plain-text log at a signed URL, followed
 * here without the token (the URL is its own credential). GitHub gives a job's log once the job
 * ends, so a running job is named with its status instead.
 */
export class GitHubLogReader implements RemoteLogReader {
  constructor(
    private readonly call: GitHubCall,
    private readonly repoPath: () => string,
  ) {}

  private async jobs(log: RemoteLog): Promise<Job[]> {
    if (log.kind !== "github") throw new Error(`not a GitHub log: ${log.kind}`);
    const answer = await this.call(
      "GET",
      `${this.repoPath()}/actions/runs/${encodeURIComponent(log.run)}/jobs?per_page=100`,
    );
    if (!answer.ok) throw new Error(`GitHub answered HTTP ${answer.status} listing the run's jobs`);
    return ((await answer.json()) as { jobs?: Job[] }).jobs ?? [];
  }

  private async jobLog(job: Job): Promise<string> {
    const title = `==== ${job.name ?? `job ${job.id}`} ====\n`;
    if (job.status !== "completed") {
      return `${title}(${job.status ?? "waiting"}: GitHub gives a job's log once it ends)\n`;
    }
    let answer = await this.call("GET", `${this.repoPath()}/actions/jobs/${job.id}/logs`, {
      redirect: "manual",
    });
    const location = answer.headers.get("location");
    if (answer.status >= 300 && answer.status < 400 && location) {
      answer = await fetch(location, { signal: AbortSignal.timeout(30_000) });
    }
    if (!answer.ok) return `${title}(its log could not be read: HTTP ${answer.status})\n`;
    const text = await answer.text();
    return `${title}${text.endsWith("\n") ? text : `${text}\n`}`;
  }

  /** The last jobs' logs, read from the last job back until maxBytes are there. */
  async tail(log: RemoteLog, maxBytes: number): Promise<LogText> {
    const jobs = await this.jobs(log);
    let whole = Buffer.alloc(0);
    let read = 0;
    for (const job of [...jobs].reverse()) {
      whole = Buffer.concat([Buffer.from(await this.jobLog(job), "utf8"), whole]);
      read++;
      if (whole.length >= maxBytes) break;
    }
    const text = whole.subarray(Math.max(0, whole.length - maxBytes)).toString("utf8");
    return {
      text: jobs.length === 0 ? "(the run has no jobs yet)\n" : text,
      truncated: whole.length > maxBytes || read < jobs.length,
      bytes: whole.length,
    };
  }

  async *all(log: RemoteLog): AsyncGenerator<string> {
    for (const job of await this.jobs(log)) yield await this.jobLog(job);
  }
}
