import { readFileSync } from "node:fs";
import path from "node:path";
import type { FastifyBaseLogger } from "fastify";
import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import type { Sweeper } from "../servers/servers.registry.js";
import { newBuildToken } from "./build-env.js";
import { addEvent } from "./build-events.repo.js";
import * as repo from "./builds.repo.js";
import type { BuildRow } from "./builds.repo.js";
import type { ExecutorState } from "./executors/executor.js";

/** What the builds module needs of the server registry (modules/servers). */
export interface Registry {
  readonly id: string;
  readonly host: string;
  isLive(id: string): Promise<boolean>;
  onSweep(sweeper: Sweeper): void;
  onLeaseLost(handler: () => void): void;
}

/** What a takeover needs of the build runner. */
export interface TakeoverRunner {
  readonly serverId: string;
  freeLocalSlots(): number;
  launch(row: BuildRow, token: string): Promise<void>;
  finish(row: BuildRow, state: ExecutorState): Promise<void>;
}

/** How the log and the history name a server: its host and the start of its id. */
export function serverWords(server: { id: string; host: string }): string {
  return `server ${server.host} (${server.id.slice(0, 8)})`;
}

/**
 * The builds of servers whose lease ran out (`live` are those whose lease runs), taken over by
 * this server, each once across servers. A local build (or a remote one not launched yet) starts
 * again from the start as its next try, with a new token (the old one dies, so a runner of the
 * dead server can no longer upload), under this server's slots; one somebody asked to stop ends
 * STOPPED instead. A CodeBuild or GitHub build still runs there: the poll cycle keeps following
 * it, and this server becomes its follower of record.
 */
export async function takeOverBuilds(
  runner: TakeoverRunner,
  deps: { db: Kysely<Database>; log: FastifyBaseLogger; registry: Registry },
  live: ReadonlySet<string>,
): Promise<void> {
  const active = await repo.activeBuilds(deps.db, ["local", "codebuild", "github"]);
  for (const row of active) {
    const from = row.runner_boot;
    if (from === null || live.has(from)) continue;
    const lost = `${from.slice(0, 8)} stopped renewing its lease`;
    const me = serverWords(deps.registry);
    if (row.executor_kind !== "local" && row.external_id !== null) {
      if (await repo.takeBuild(deps.db, row.id, from, runner.serverId, undefined)) {
        const words = `Followed by ${me}: server ${lost}; the build runs on at ${row.executor_kind}.`;
        await addEvent(deps.db, row.id, "taken_over", words, runner.serverId);
      }
      continue;
    }
    if (row.executor_kind === "local" && runner.freeLocalSlots() <= 0) continue;
    await relaunch(runner, deps, row, from, `Taken over by ${me}: server ${lost}`);
  }
}

async function relaunch(
  runner: TakeoverRunner,
  deps: { db: Kysely<Database>; log: FastifyBaseLogger },
  row: BuildRow,
  from: string,
  why: string,
): Promise<void> {
  const { token, hash } = newBuildToken();
  const run = await repo.findRun(deps.db, row.test_run_key);
  // Results the lost try reported stay; the new try's results are the run's next attempt.
  const attempt = run
    ? Math.max(row.attempt, await repo.highestAttempt(deps.db, run.id, row.test_run_key))
    : row.attempt;
  const message = `${why}; started again as try ${row.tries + 1}.`;
  const taken = await repo.takeBuild(deps.db, row.id, from, runner.serverId, {
    tokenHash: hash,
    attempt,
    message,
  });
  if (!taken) return;
  if (row.executor_kind === "local" && row.external_id !== null)
    killOrphan(Number(row.external_id), row.id);
  if (taken.stop_requested_at !== null) {
    await runner.finish(taken, {
      phase: "COMPLETED",
      status: "STOPPED",
      message: `Stopped by ${taken.stop_requested_by ?? "a user"} (its server had stopped).`,
    });
    return;
  }
  await addEvent(deps.db, row.id, "taken_over", message, runner.serverId);
  deps.log.info({ buildId: row.id, from }, "builds: took over a build of a dead server");
  await runner.launch(taken, token);
}

/**
 * Ends a dead server's build process if it is on this host and still there; identified by its
 * ASSAY_BUILD_ID, so a reused pid is never killed. Its runner wrapper ends the group itself when
 * its server dies; this is for a server that hung rather than died.
 */
export function killOrphan(pid: number, buildId: number): void {
  try {
    const environ = readFileSync(path.join("/proc", String(pid), "environ"), "latin1");
    if (!environ.split("\0").includes(`ASSAY_BUILD_ID=${buildId}`)) return;
    process.kill(-pid, "SIGKILL");
  } catch {
    // Gone already, or not ours to read.
  }
}
