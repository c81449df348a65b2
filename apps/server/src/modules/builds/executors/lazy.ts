import type { ExecutorKind } from "@assay/core";
import type { RemoteLog } from "../../../db/schema.js";
import type { LogText, RemoteLogReader } from "./cloudwatch-logs.js";
import type { Executor, LaunchRequest, Launched, PollResult } from "./executor.js";

/**
 * An executor whose module is imported on its first use. CodeBuild's executor loads the AWS SDK
 * clients for CodeBuild and CloudWatch Logs, about 40 MB of resident memory: a server whose build
 * lists all run locally (the default) never loads them.
 */
export class LazyExecutor implements Executor {
  private loaded: Promise<Executor> | undefined;
  readonly logs: RemoteLogReader;

  constructor(
    readonly kind: ExecutorKind,
    readonly pollBatchSize: number,
    private readonly load: () => Promise<Executor>,
  ) {
    const reader = async (): Promise<RemoteLogReader> => {
      const { logs } = await this.executor();
      if (!logs) throw new Error(`the ${kind} executor keeps no logs`);
      return logs;
    };
    this.logs = {
      tail: async (log: RemoteLog, maxBytes: number): Promise<LogText> =>
        (await reader()).tail(log, maxBytes),
      all: async function* (log: RemoteLog): AsyncGenerator<string> {
        yield* (await reader()).all(log);
      },
    };
  }

  private executor(): Promise<Executor> {
    // A failed import is not kept: the next call tries again.
    this.loaded ??= this.load().catch((error: unknown) => {
      this.loaded = undefined;
      throw error;
    });
    return this.loaded;
  }

  async start(request: LaunchRequest): Promise<Launched> {
    return (await this.executor()).start(request);
  }

  async poll(externalIds: readonly string[]): Promise<PollResult> {
    return (await this.executor()).poll(externalIds);
  }

  async stop(externalId: string): Promise<void> {
    return (await this.executor()).stop(externalId);
  }
}
