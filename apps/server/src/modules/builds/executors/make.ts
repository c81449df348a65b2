import type { BuildsConfig, ExecutorSettings } from "../builds.config.js";
import { CODEBUILD_BATCH, type Executor } from "./executor.js";
import { GitHubExecutor } from "./github.js";
import { LazyExecutor } from "./lazy.js";
import { LocalExecutor, type LocalExecutorOptions } from "./local.js";

/** The executor a build list's settings name (CodeBuild's AWS client is loaded on first use). */
export function executorFor(
  settings: ExecutorSettings,
  deps: {
    serverEnv: NodeJS.ProcessEnv;
    installDir: string;
    logDir: string;
    builds: BuildsConfig;
    onExit: LocalExecutorOptions["onExit"];
  },
): Executor {
  if (settings.kind === "codebuild") {
    return new LazyExecutor("codebuild", CODEBUILD_BATCH, async () => {
      const { CodeBuildExecutor } = await import("./codebuild.js");
      return new CodeBuildExecutor(settings, deps.serverEnv);
    });
  }
  if (settings.kind === "github") return new GitHubExecutor(settings, deps.serverEnv);
  return new LocalExecutor(settings, {
    installDir: deps.installDir,
    logDir: deps.logDir,
    serverEnv: deps.serverEnv,
    timeLimitMs: deps.builds.timeLimitMinutes * 60_000,
    onExit: deps.onExit,
  });
}
