import { spawn, type ChildProcess } from "node:child_process";
import { RUNNER_WRAPPER } from "./runner-wrapper.js";
import { accessSync, constants, openSync, closeSync, mkdirSync } from "node:fs";
import type { Socket } from "node:net";
import path from "node:path";
import type { LocalExecutorSettings } from "../builds.config.js";
import {
  BuildRefused,
  MISSING,
  type Executor,
  type ExecutorState,
  type LaunchRequest,
  type Launched,
  type PollResult,
} from "./executor.js";

/** How long a stopped build's process group has between SIGTERM and SIGKILL. */
const KILL_GRACE_MS = 5_000;

export interface LocalExecutorOptions {
  /** Assay's install folder: the command's working folder is resolved against it. */
  installDir: string;
  /** Where build logs are written while the build runs (one file per build). */
  logDir: string;
  /** The server's environment: only PATH, HOME and the settings' passEnv reach the runner. */
  serverEnv: NodeJS.ProcessEnv;
  timeLimitMs: number;
  /** Called when a build's process ends (or cannot start), with its final state. */
  onExit: (buildId: number, state: ExecutorState) => void;
}

interface Running {
  child: ChildProcess;
  buildId: number;
  state: ExecutorState;
  ending?: "STOPPED" | "TIMED_OUT";
  /** Killed because the server stops: the build stays active and is started again on restart. */
  abandoned?: boolean;
  timers: NodeJS.Timeout[];
}

export function logPathOf(logDir: string, buildId: number): string {
  return path.join(logDir, `build-${buildId}.log`);
}

/** Where `executable` is: an absolute path as given, else the first match in PATH; or undefined. */
export function findExecutable(
  executable: string,
  searchPath: string | undefined,
): string | undefined {
  const candidates = path.isAbsolute(executable)
    ? [executable]
    : (searchPath ?? "")
        .split(path.delimiter)
        .filter(Boolean)
        .map((dir) => path.join(dir, executable));
  return candidates.find((candidate) => {
    try {
      accessSync(candidate, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/**
 * Runs a configured command as a child process: argv exactly as configured and no shell, so no
 * build value can become code or an option; the build's values reach it only as environment
 * variables. Its own process group, so Stop and the time limit end everything it started.
 */
export class LocalExecutor implements Executor {
  readonly kind = "local" as const;
  readonly pollBatchSize = 1000;
  private readonly running = new Map<string, Running>();

  constructor(
    private readonly settings: LocalExecutorSettings,
    private readonly options: LocalExecutorOptions,
  ) {}

  private checkRequirements(): void {
    for (const requirement of this.settings.requires) {
      const override = requirement.overrideEnv
        ? this.options.serverEnv[requirement.overrideEnv]
        : undefined;
      const executable = override ?? requirement.executable;
      if (!findExecutable(executable, this.options.serverEnv.PATH)) {
        throw new BuildRefused(`${executable} was not found. Install ${requirement.install}.`);
      }
    }
  }

  private runnerEnv(request: LaunchRequest): Record<string, string> {
    const env: Record<string, string> = {};
    for (const name of ["PATH", "HOME", ...this.settings.passEnv]) {
      const value = this.options.serverEnv[name];
      if (value !== undefined) env[name] = value;
    }
    return { ...env, ...request.env, ...request.secrets };
  }

  async start(request: LaunchRequest): Promise<Launched> {
    this.checkRequirements();
    const [file, ...args] = this.settings.command as [string, ...string[]];
    if (!findExecutable(file, this.options.serverEnv.PATH) && !path.isAbsolute(file)) {
      throw new BuildRefused(
        `${file} was not found in PATH. Install it or fix builds.executors in assay.config.yaml.`,
      );
    }
    mkdirSync(this.options.logDir, { recursive: true });
    const log = openSync(logPathOf(this.options.logDir, request.buildId), "a");
    let child: ChildProcess;
    try {
      // Under the wrapper, which ends the group when this server's pipe to it closes.
      child = spawn(process.execPath, ["-e", RUNNER_WRAPPER, "--", file, ...args], {
        cwd: path.resolve(this.options.installDir, this.settings.cwd ?? "."),
        env: this.runnerEnv(request),
        detached: true,
        shell: false,
        stdio: ["pipe", log, log],
      });
      await new Promise<void>((resolve, reject) => {
        child.once("spawn", resolve);
        child.once("error", reject);
      });
    } catch (error) {
      throw new BuildRefused(`${file} could not be started: ${(error as Error).message}`);
    } finally {
      closeSync(log);
    }
    // The pipe stays open while this server lives; it must not keep a stopping server alive.
    (child.stdin as Socket | null)?.unref();
    const externalId = String(child.pid);
    const entry: Running = {
      child,
      buildId: request.buildId,
      state: { phase: "BUILD", status: "IN_PROGRESS" },
      timers: [],
    };
    this.running.set(externalId, entry);
    entry.timers.push(
      setTimeout(() => this.end(externalId, "TIMED_OUT"), this.options.timeLimitMs),
    );
    child.once("exit", (code, signal) => {
      entry.timers.forEach(clearTimeout);
      this.running.delete(externalId);
      if (entry.abandoned) return;
      const status = entry.ending ?? (code === 0 ? "SUCCEEDED" : "FAILED");
      const message =
        status === "TIMED_OUT"
          ? `The build ran longer than its time limit (${Math.round(this.options.timeLimitMs / 60_000)} min) and was stopped.`
          : status === "FAILED"
            ? `The runner exited with ${code === null ? `signal ${signal}` : `code ${code}`}; see the build log.`
            : undefined;
      entry.state = { phase: "COMPLETED", status, endTime: new Date(), message };
      this.options.onExit(entry.buildId, entry.state);
    });
    return { externalId, externalUrl: null, state: entry.state };
  }

  async poll(externalIds: readonly string[]): Promise<PollResult> {
    const result: PollResult = new Map();
    for (const id of externalIds) result.set(id, this.running.get(id)?.state ?? MISSING);
    return result;
  }

  async stop(externalId: string): Promise<void> {
    this.end(externalId, "STOPPED");
  }

  /**
   * Stops the build if this server runs it. By build id, not process id: another server's build
   * may have the same pid on its own host.
   */
  stopBuild(buildId: number): boolean {
    for (const [externalId, entry] of this.running) {
      if (entry.buildId !== buildId) continue;
      this.end(externalId, "STOPPED");
      return true;
    }
    return false;
  }

  /** Ends a build's whole process group: SIGTERM, then SIGKILL after a grace period. */
  private end(externalId: string, why: "STOPPED" | "TIMED_OUT"): void {
    const entry = this.running.get(externalId);
    if (!entry || entry.child.pid === undefined) return;
    entry.ending ??= why;
    const group = -entry.child.pid;
    signalGroup(group, "SIGTERM");
    entry.timers.push(setTimeout(() => signalGroup(group, "SIGKILL"), KILL_GRACE_MS));
  }

  /** Ends every running build (server shutdown): their builds are started again on restart. */
  stopAll(): void {
    for (const entry of this.running.values()) {
      entry.timers.forEach(clearTimeout);
      entry.abandoned = true;
      if (entry.child.pid !== undefined) signalGroup(-entry.child.pid, "SIGKILL");
    }
  }

  /** Builds this server runs now. */
  runningBuildIds(): number[] {
    return [...this.running.values()].map((entry) => entry.buildId);
  }
}

function signalGroup(group: number, signal: NodeJS.Signals): void {
  try {
    process.kill(group, signal);
  } catch {
    // The group is already gone.
  }
}
