import type { BuildPhase, BuildStatus } from "@assay/core";
import type { GitHubExecutorSettings } from "../builds.config.js";
import { GitHubLogReader } from "./github-logs.js";
import {
  BuildRefused,
  MISSING,
  type Executor,
  type ExecutorState,
  type LaunchRequest,
  type Launched,
  type PollResult,
} from "./executor.js";

/** How long the fallback looks for a dispatched run (GitHub lists it within seconds). */
const FIND_RUN_ATTEMPTS = 10;
const FIND_RUN_DELAY_MS = 1000;

interface WorkflowRun {
  id: number;
  html_url?: string;
  status?: string | null;
  conclusion?: string | null;
  display_title?: string;
  name?: string | null;
  updated_at?: string;
}

/** GitHub's workflow run status and conclusion in CodeBuild's phases and statuses. */
export function stateOfRun(run: WorkflowRun): ExecutorState {
  // Its jobs (and their logs) exist once the run has left the queue.
  const log =
    run.status === "queued" ? undefined : { kind: "github" as const, run: String(run.id) };
  if (run.status !== "completed") {
    const phase: BuildPhase = run.status === "in_progress" ? "BUILD" : "QUEUED";
    return { phase, status: "IN_PROGRESS", log };
  }
  const statuses: Record<string, BuildStatus> = {
    success: "SUCCEEDED",
    neutral: "SUCCEEDED",
    skipped: "SUCCEEDED",
    failure: "FAILED",
    action_required: "FAILED",
    cancelled: "STOPPED",
    timed_out: "TIMED_OUT",
    startup_failure: "FAULT",
    stale: "FAULT",
  };
  const status = statuses[run.conclusion ?? ""] ?? "FAULT";
  return {
    phase: "COMPLETED",
    status,
    log,
    endTime: run.updated_at ? new Date(run.updated_at) : new Date(),
    message:
      status === "SUCCEEDED"
        ? undefined
        : `GitHub Actions concluded ${run.conclusion ?? "without a conclusion"}.`,
  };
}

/** The run name the workflow must set (run-name), so a dispatched run can be found by its input. */
export function runTitleOf(buildId: number): string {
  return `assay build ${buildId}`;
}

/**
 * GitHub Actions: workflow_dispatch with the runner contract in inputs (return_run_details gives
 * the run at once on github.com; elsewhere the run is found by its unique run name), then the run
 * is polled. Plain fetch on GitHub's REST paths.
 */
export class GitHubExecutor implements Executor {
  readonly kind = "github" as const;
  readonly pollBatchSize = 100;
  /** Each job's log of the run, read through GitHub's REST API with the executor's token. */
  readonly logs = new GitHubLogReader(
    (method, path, options) => this.call(method, path, undefined, options?.redirect),
    () => this.repoPath(),
  );

  constructor(
    private readonly settings: GitHubExecutorSettings,
    private readonly serverEnv: NodeJS.ProcessEnv,
    private readonly sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms)),
  ) {}

  private async call(
    method: string,
    path: string,
    body?: unknown,
    redirect: "follow" | "manual" = "follow",
  ): Promise<Response> {
    const token = this.serverEnv[this.settings.tokenEnv];
    if (!token)
      throw new BuildRefused(
        `The GitHub token is missing: set ${this.settings.tokenEnv} for the server.`,
      );
    const base = this.settings.apiUrl.replace(/\/$/, "");
    return fetch(`${base}${path}`, {
      method,
      headers: {
        accept: "application/vnd.github+json",
        authorization: `Bearer ${token}`,
        "x-github-api-version": "2022-11-28",
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      redirect,
      signal: AbortSignal.timeout(30_000),
    });
  }

  private repoPath(): string {
    return `/repos/${encodeURIComponent(this.settings.owner)}/${encodeURIComponent(this.settings.repo)}`;
  }

  async start(request: LaunchRequest): Promise<Launched> {
    const workflow = `${this.repoPath()}/actions/workflows/${encodeURIComponent(this.settings.workflow)}`;
    const answer = await this.call("POST", `${workflow}/dispatches`, {
      ref: request.sourceVersion,
      inputs: {
        assay_build_id: String(request.buildId),
        assay_env: JSON.stringify(request.env),
        assay_secrets: JSON.stringify(request.secrets),
      },
      return_run_details: true,
    });
    if (answer.status === 200) {
      const details = (await answer.json()) as { workflow_run_id?: number; html_url?: string };
      if (details.workflow_run_id) {
        return {
          externalId: String(details.workflow_run_id),
          externalUrl: details.html_url ?? null,
          state: { phase: "QUEUED", status: "IN_PROGRESS" },
        };
      }
    } else if (answer.status !== 204) {
      await this.refuseOrThrow(answer, "workflow_dispatch");
    }
    const run = await this.findRun(workflow, request.buildId);
    return {
      externalId: String(run.id),
      externalUrl: run.html_url ?? null,
      state: stateOfRun(run),
    };
  }

  /** 4xx but throttling: GitHub will not run it (bad ref, no workflow, no permission). */
  private async refuseOrThrow(answer: Response, what: string): Promise<never> {
    const text = (await answer.text()).slice(0, 500);
    const throttled =
      answer.status === 429 ||
      (answer.status === 403 && answer.headers.get("x-ratelimit-remaining") === "0");
    if (answer.status >= 400 && answer.status < 500 && !throttled) {
      throw new BuildRefused(`GitHub refused ${what} (HTTP ${answer.status}): ${text}`);
    }
    throw new Error(`GitHub ${what} answered HTTP ${answer.status}: ${text}`);
  }

  private async findRun(workflow: string, buildId: number): Promise<WorkflowRun> {
    const title = runTitleOf(buildId);
    for (let attempt = 0; attempt < FIND_RUN_ATTEMPTS; attempt++) {
      const answer = await this.call("GET", `${workflow}/runs?event=workflow_dispatch&per_page=50`);
      if (!answer.ok) await this.refuseOrThrow(answer, "listing workflow runs");
      const { workflow_runs: runs } = (await answer.json()) as { workflow_runs: WorkflowRun[] };
      const run = runs.find((r) => r.display_title === title || r.name === title);
      if (run) return run;
      await this.sleep(FIND_RUN_DELAY_MS);
    }
    throw new BuildRefused(
      `The dispatched workflow run was not found: the workflow must set run-name: "assay build \${{ inputs.assay_build_id }}" (docs/runners.md).`,
    );
  }

  async poll(externalIds: readonly string[]): Promise<PollResult> {
    const result: PollResult = new Map();
    for (const id of externalIds) {
      const answer = await this.call(
        "GET",
        `${this.repoPath()}/actions/runs/${encodeURIComponent(id)}`,
      );
      if (answer.status === 404 || answer.status === 410) {
        result.set(id, MISSING);
        continue;
      }
      if (!answer.ok)
        await this.refuseOrThrow(answer, "reading a workflow run").catch((error: unknown) => {
          throw error instanceof BuildRefused ? new Error(error.message) : error;
        });
      result.set(id, stateOfRun((await answer.json()) as WorkflowRun));
    }
    return result;
  }

  async stop(externalId: string): Promise<void> {
    const answer = await this.call(
      "POST",
      `${this.repoPath()}/actions/runs/${encodeURIComponent(externalId)}/cancel`,
    );
    // 409: the run has completed already; 404: it is gone. Either way the next poll tells.
    if (!answer.ok && answer.status !== 409 && answer.status !== 404)
      await this.refuseOrThrow(answer, "cancel");
  }
}
