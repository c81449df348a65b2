import type { BuildPhase, BuildStatus, ExecutorKind } from "@assay/core";
import type { RemoteLog } from "../../../db/schema.js";
import type { RemoteLogReader } from "./cloudwatch-logs.js";

/**
 * One interface for every place a build can run (local process, AWS CodeBuild, GitHub Actions).
 * Every executor reports in CodeBuild's vocabulary of phases and statuses.
 */

export interface LaunchRequest {
  buildId: number;
  runKey: string;
  /** The branch (or commit) of the test repository. */
  sourceVersion: string;
  /** The runner contract and every payload field, as environment variables. */
  env: Record<string, string>;
  /** Variables that are secrets (ASSAY_TOKEN, SPIRA_CREDENTIALS_STRING): never logged. */
  secrets: Record<string, string>;
}

export interface Launched {
  externalId: string;
  externalUrl: string | null;
  state: ExecutorState;
}

export interface ExecutorState {
  phase: BuildPhase;
  status: BuildStatus;
  /** Set when the build ended. */
  endTime?: Date;
  /** Why it failed or stopped, for a person. */
  message?: string;
  /** Where the executor keeps the build's log, once it says (CodeBuild: CloudWatch Logs). */
  log?: RemoteLog;
}

/** BatchGetBuilds takes at most 100 ids per call (here so the runner knows it before loading the SDK). */
export const CODEBUILD_BATCH = 100;

/** The executor no longer knows the build (deleted, expired, or its process is gone). */
export const MISSING = "missing" as const;

/** What an executor reports for the builds it was asked about: a state, or MISSING. */
export type PollResult = Map<string, ExecutorState | typeof MISSING>;

export interface Executor {
  readonly kind: ExecutorKind;
  /** Most ids one poll call takes (CodeBuild's BatchGetBuilds: 100). */
  readonly pollBatchSize: number;
  /**
   * Starts the build. Throws BuildRefused for a build that cannot run (a tool is missing, the
   * service refused it): the build fails with that message; any other error is retried.
   */
  start(request: LaunchRequest): Promise<Launched>;
  /** The state of each build, at most pollBatchSize ids per call. */
  poll(externalIds: readonly string[]): Promise<PollResult>;
  /** Asks the executor to stop the build; its final state comes through poll (or onChange). */
  stop(externalId: string): Promise<void>;
  /** Reads the logs a remote executor keeps, when Assay can (CodeBuild's CloudWatch Logs). */
  readonly logs?: RemoteLogReader;
}

/** A build that cannot run, with a message naming what to install or configure. */
export class BuildRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BuildRefused";
  }
}
