import {
  BatchGetBuildsCommand,
  CodeBuildClient,
  StartBuildCommand,
  StopBuildCommand,
  type Build as CodeBuildBuild,
} from "@aws-sdk/client-codebuild";
import { CloudWatchLogsClient } from "@aws-sdk/client-cloudwatch-logs";
import { BUILD_PHASES, BUILD_STATUSES, type BuildPhase, type BuildStatus } from "@assay/core";
import type { RemoteLog } from "../../../db/schema.js";
import type { CodeBuildExecutorSettings } from "../builds.config.js";
import { CloudWatchLogReader } from "./cloudwatch-logs.js";
import {
  BuildRefused,
  CODEBUILD_BATCH,
  MISSING,
  type Executor,
  type ExecutorState,
  type LaunchRequest,
  type Launched,
  type PollResult,
} from "./executor.js";

/** Errors CodeBuild answers for a build it will not run: the build fails with CodeBuild's message. */
const REFUSALS = new Set([
  "InvalidInputException",
  "ResourceNotFoundException",
  "AccountLimitExceededException",
  "AccessDeniedException",
]);

function credentialsFrom(settings: CodeBuildExecutorSettings, env: NodeJS.ProcessEnv) {
  const prefix = settings.credentialsEnvPrefix;
  if (!prefix) return undefined;
  const accessKeyId = env[`${prefix}_ACCESS_KEY_ID`];
  const secretAccessKey = env[`${prefix}_SECRET_ACCESS_KEY`];
  if (!accessKeyId || !secretAccessKey) {
    throw new BuildRefused(
      `CodeBuild credentials are missing: set ${prefix}_ACCESS_KEY_ID and ${prefix}_SECRET_ACCESS_KEY for the server.`,
    );
  }
  return { accessKeyId, secretAccessKey, sessionToken: env[`${prefix}_SESSION_TOKEN`] };
}

function phaseOf(build: CodeBuildBuild): BuildPhase {
  const phase = build.currentPhase as BuildPhase | undefined;
  return phase && (BUILD_PHASES as readonly string[]).includes(phase) ? phase : "SUBMITTED";
}

/** CodeBuild names the build's CloudWatch Logs group and stream once the build has a container. */
function logOf(build: CodeBuildBuild): RemoteLog | undefined {
  const { groupName, streamName } = build.logs ?? {};
  return groupName && streamName
    ? { kind: "cloudwatch", group: groupName, stream: streamName }
    : undefined;
}

function stateOf(build: CodeBuildBuild): ExecutorState {
  const status = (BUILD_STATUSES as readonly string[]).includes(build.buildStatus ?? "")
    ? (build.buildStatus as BuildStatus)
    : "IN_PROGRESS";
  const log = logOf(build);
  if (status === "IN_PROGRESS") return { phase: phaseOf(build), status, log };
  const failedPhase = build.phases?.find((p) => p.phaseStatus && p.phaseStatus !== "SUCCEEDED");
  const context = failedPhase?.contexts?.find((c) => c.message)?.message;
  return {
    phase: "COMPLETED",
    status,
    log,
    endTime: build.endTime ?? new Date(),
    message:
      status === "SUCCEEDED"
        ? undefined
        : (context ??
          `CodeBuild ended the build ${status}${failedPhase ? ` in ${failedPhase.phaseType}` : ""}.`),
  };
}

/** AWS CodeBuild: StartBuild with the runner contract as environment variable overrides. */
export class CodeBuildExecutor implements Executor {
  readonly kind = "codebuild" as const;
  readonly pollBatchSize = CODEBUILD_BATCH;
  private client: CodeBuildClient | undefined;
  private logsClient: CloudWatchLogsClient | undefined;
  /** The build logs CodeBuild writes to CloudWatch Logs, read with the same region and keys. */
  readonly logs = new CloudWatchLogReader(() => {
    this.logsClient ??= new CloudWatchLogsClient({
      region: this.settings.region,
      endpoint: this.settings.logsEndpoint,
      credentials: credentialsFrom(this.settings, this.serverEnv),
      maxAttempts: 4,
    });
    return this.logsClient;
  });

  constructor(
    private readonly settings: CodeBuildExecutorSettings,
    private readonly serverEnv: NodeJS.ProcessEnv,
  ) {}

  private codebuild(): CodeBuildClient {
    this.client ??= new CodeBuildClient({
      region: this.settings.region,
      endpoint: this.settings.endpoint,
      credentials: credentialsFrom(this.settings, this.serverEnv),
      // Throttling is retried with the SDK's backoff; what still fails waits for the next cycle.
      maxAttempts: 4,
    });
    return this.client;
  }

  async start(request: LaunchRequest): Promise<Launched> {
    const variables = [
      ...Object.entries(request.env).map(([name, value]) => ({
        name,
        value,
        type: "PLAINTEXT" as const,
      })),
      ...Object.entries(request.secrets).map(([name, value]) => ({
        name,
        value,
        type: "PLAINTEXT" as const,
      })),
    ];
    try {
      const answer = await this.codebuild().send(
        new StartBuildCommand({
          projectName: this.settings.projectName,
          sourceVersion: request.sourceVersion,
          environmentVariablesOverride: variables,
          idempotencyToken:
            `assay-build-${request.buildId}-${request.env.ASSAY_RUN_KEY ?? ""}`.slice(0, 64),
        }),
      );
      const build = answer.build;
      if (!build?.id) throw new BuildRefused("CodeBuild answered StartBuild without a build id.");
      return {
        externalId: build.id,
        externalUrl: this.consoleUrl(build.id),
        state: stateOf(build),
      };
    } catch (error) {
      const name = (error as { name?: string }).name ?? "";
      if (REFUSALS.has(name))
        throw new BuildRefused(
          `CodeBuild refused the build (${name}): ${(error as Error).message}`,
        );
      throw error;
    }
  }

  private consoleUrl(id: string): string {
    const domain = this.settings.region.startsWith("cn-")
      ? "console.amazonaws.cn"
      : "console.aws.amazon.com";
    return `https://${this.settings.region}.${domain}/codesuite/codebuild/projects/${encodeURIComponent(this.settings.projectName)}/build/${encodeURIComponent(id)}/?region=${this.settings.region}`;
  }

  async poll(externalIds: readonly string[]): Promise<PollResult> {
    if (externalIds.length > CODEBUILD_BATCH)
      throw new Error(`BatchGetBuilds takes at most ${CODEBUILD_BATCH} ids`);
    const result: PollResult = new Map();
    if (externalIds.length === 0) return result;
    const answer = await this.codebuild().send(
      new BatchGetBuildsCommand({ ids: [...externalIds] }),
    );
    for (const build of answer.builds ?? []) if (build.id) result.set(build.id, stateOf(build));
    for (const id of answer.buildsNotFound ?? []) result.set(id, MISSING);
    return result;
  }

  async stop(externalId: string): Promise<void> {
    try {
      await this.codebuild().send(new StopBuildCommand({ id: externalId }));
    } catch (error) {
      // Already gone: the next poll reports it missing.
      if ((error as { name?: string }).name !== "ResourceNotFoundException") throw error;
    }
  }
}
