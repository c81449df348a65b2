import { createServer, type IncomingMessage, type Server } from "node:http";
import { BUILD_PHASES } from "@assay/core";

/**
 * A small AWS CodeBuild on 127.0.0.1: the JSON 1.1 protocol (POST /, X-Amz-Target
 * CodeBuild_20161006.<Operation>, application/x-amz-json-1.1, timestamps in epoch seconds,
 * errors as { __type, message }). Each BatchGetBuilds moves an active build one phase on and
 * writes the phase's line to the build's log, which the same server answers as CloudWatch Logs
 * does (X-Amz-Target Logs_20140328.GetLogEvents, timestamps in epoch milliseconds, f/ and b/
 * tokens, the same forward token once the stream's end is reached).
 */

export interface FakeBuild {
  id: string;
  projectName: string;
  sourceVersion: string;
  environmentVariables: { name: string; value: string; type: string }[];
  phaseIndex: number;
  buildStatus: string;
  startTime: number;
  endTime?: number;
  /** The status the build ends with when it reaches COMPLETED. */
  outcome: string;
  /** Its CloudWatch Logs events, once it has a container (PROVISIONING on). */
  events: { timestamp: number; message: string; ingestionTime: number }[];
}

/** CodeBuild's log group of a project, and the stream of a build: the id's part after ':'. */
const groupOf = (build: FakeBuild) => `/aws/codebuild/${build.projectName}`;
const streamOf = (build: FakeBuild) => build.id.slice(build.id.indexOf(":") + 1);
const PROVISIONING = BUILD_PHASES.indexOf("PROVISIONING");

export class CodeBuildFake {
  readonly builds = new Map<string, FakeBuild>();
  /** Each call, with the access key and region its SigV4 signature names. */
  readonly calls: {
    target: string;
    body: Record<string, unknown>;
    accessKey?: string;
    region?: string;
  }[] = [];
  /** The next N calls answer ThrottlingException. */
  throttleNext = 0;
  /** How the next started build ends. */
  nextOutcome = "SUCCEEDED";
  private server: Server | undefined;
  private counter = 0;
  url = "";

  async start(): Promise<void> {
    this.server = createServer((request, response) => {
      void this.handle(request).then(([status, body]) => {
        response.writeHead(status, {
          "content-type": "application/x-amz-json-1.1",
          "x-amzn-requestid": `req-${this.counter++}`,
        });
        response.end(JSON.stringify(body));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as { port: number }).port}`;
  }

  async stop(): Promise<void> {
    await new Promise((resolve) => this.server?.close(resolve));
  }

  count(operation: string): number {
    return this.calls.filter((call) => call.target === operation).length;
  }

  /** Writes a line to the build's log, as the CodeBuild agent does. */
  writeLog(build: FakeBuild, message: string): void {
    const now = Date.now();
    build.events.push({ timestamp: now, message: `${message}\n`, ingestionTime: now });
  }

  private wire(build: FakeBuild) {
    const hasLog = build.phaseIndex >= PROVISIONING;
    return {
      id: build.id,
      arn: `arn:aws:codebuild:us-west-2:123456789012:build/${build.id}`,
      projectName: build.projectName,
      sourceVersion: build.sourceVersion,
      currentPhase: BUILD_PHASES[build.phaseIndex],
      buildStatus: build.buildStatus,
      startTime: build.startTime,
      endTime: build.endTime,
      buildComplete: build.buildStatus !== "IN_PROGRESS",
      environment: { environmentVariables: build.environmentVariables },
      logs: hasLog
        ? {
            groupName: groupOf(build),
            streamName: streamOf(build),
            deepLink: `https://console.aws.amazon.com/cloudwatch/home?region=us-west-2#logEvent:group=${encodeURIComponent(groupOf(build))};stream=${streamOf(build)}`,
          }
        : { deepLink: "https://console.aws.amazon.com/cloudwatch/home?region=us-west-2" },
    };
  }

  /** GetLogEvents: the stream's events from a token (f/N after N, b/N before N), head or tail. */
  private getLogEvents(body: Record<string, unknown>): [number, unknown] {
    const build = [...this.builds.values()].find(
      (b) =>
        b.phaseIndex >= PROVISIONING &&
        groupOf(b) === body.logGroupName &&
        streamOf(b) === body.logStreamName,
    );
    if (!build) {
      return [
        400,
        {
          __type: "ResourceNotFoundException",
          message: "The specified log stream does not exist.",
        },
      ];
    }
    const limit = Math.min(Number(body.limit ?? 10_000), 10_000);
    const events = build.events;
    const token = typeof body.nextToken === "string" ? body.nextToken : undefined;
    let start: number;
    let end: number;
    if (token?.startsWith("f/")) {
      start = Number(token.slice(2));
      end = Math.min(events.length, start + limit);
    } else if (token?.startsWith("b/")) {
      end = Number(token.slice(2));
      start = Math.max(0, end - limit);
    } else if (body.startFromHead === true) {
      start = 0;
      end = Math.min(events.length, limit);
    } else {
      end = events.length;
      start = Math.max(0, end - limit);
    }
    return [
      200,
      {
        events: events.slice(start, end),
        nextForwardToken: `f/${end}`,
        nextBackwardToken: `b/${start}`,
      },
    ];
  }

  private async handle(request: IncomingMessage): Promise<[number, unknown]> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const target = String(request.headers["x-amz-target"] ?? "");
    const body = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}") as Record<
      string,
      unknown
    >;
    const operation = target.replace(/^(CodeBuild_20161006|Logs_20140328)\./, "");
    const scope = /Credential=([^/]+)\/\d+\/([^/]+)\//.exec(
      String(request.headers.authorization ?? ""),
    );
    this.calls.push({ target: operation, body, accessKey: scope?.[1], region: scope?.[2] });
    if (!request.headers.authorization?.startsWith("AWS4-HMAC-SHA256")) {
      return [
        400,
        { __type: "MissingAuthenticationTokenException", message: "Missing Authentication Token" },
      ];
    }
    if (this.throttleNext > 0) {
      this.throttleNext--;
      return [400, { __type: "ThrottlingException", message: "Rate exceeded" }];
    }
    if (operation === "StartBuild") {
      const id = `${String(body.projectName)}:${crypto.randomUUID()}`;
      const build: FakeBuild = {
        id,
        projectName: String(body.projectName),
        sourceVersion: String(body.sourceVersion),
        environmentVariables: (body.environmentVariablesOverride ??
          []) as FakeBuild["environmentVariables"],
        phaseIndex: 0,
        buildStatus: "IN_PROGRESS",
        startTime: Date.now() / 1000,
        outcome: this.nextOutcome,
        events: [],
      };
      this.builds.set(id, build);
      return [200, { build: this.wire(build) }];
    }
    if (operation === "BatchGetBuilds") {
      const ids = body.ids as string[];
      if (ids.length > 100)
        return [400, { __type: "InvalidInputException", message: "ids: at most 100" }];
      const found = ids.flatMap((id) => (this.builds.has(id) ? [this.builds.get(id)!] : []));
      for (const build of found) {
        if (build.buildStatus !== "IN_PROGRESS") continue;
        build.phaseIndex++;
        const phase = BUILD_PHASES[build.phaseIndex]!;
        if (phase === "COMPLETED") {
          build.buildStatus = build.outcome;
          build.endTime = Date.now() / 1000;
        }
        if (build.phaseIndex >= PROVISIONING) {
          this.writeLog(build, `[Container] ${new Date().toISOString()} Entering phase ${phase}`);
        }
      }
      return [
        200,
        {
          builds: found.map((b) => this.wire(b)),
          buildsNotFound: ids.filter((id) => !this.builds.has(id)),
        },
      ];
    }
    if (operation === "StopBuild") {
      const build = this.builds.get(String(body.id));
      if (!build)
        return [
          400,
          { __type: "ResourceNotFoundException", message: `Build ${String(body.id)} not found` },
        ];
      if (build.buildStatus === "IN_PROGRESS") {
        build.buildStatus = "STOPPED";
        build.phaseIndex = BUILD_PHASES.indexOf("COMPLETED");
        build.endTime = Date.now() / 1000;
      }
      return [200, { build: this.wire(build) }];
    }
    if (target === "Logs_20140328.GetLogEvents") return this.getLogEvents(body);
    return [400, { __type: "UnknownOperationException", message: operation }];
  }
}
