import {
  BackendBuildSchema,
  blankFieldsAsAbsent,
  BUILD_LIST_PATHS,
  frontendBuildSchema,
  isHostOrHttpsUrl,
  LoadBuildSchema,
  type Build,
  type BuildEvent,
  type BuildList,
  type BuildPage,
  type BuildPhase,
  type BuildStatus,
} from "@assay/core";
import type { Kysely } from "kysely";
import type { z } from "zod";
import type { Database } from "../../db/schema.js";
import { AppError, notFound } from "../../errors.js";
import type { Principal } from "../auth/access.js";
import { withoutEmails } from "../auth/people.js";
import { hasTestManagementCredentials } from "../profile/profile.service.js";
import { defaultRunName, newRunKey } from "../ingest/ingest.service.js";
import type { BuildsConfig } from "./builds.config.js";
import * as repo from "./builds.repo.js";
import { checkTargetHosts } from "./target-hosts.js";
import { addEvent, eventsOf } from "./build-events.repo.js";
import type { BuildRow, NewBuild } from "./builds.repo.js";

/** What the build service needs; the runner starts, polls and stops what it records. */
export interface BuildsDeps {
  db: Kysely<Database>;
  builds: BuildsConfig;
  catalog: { companyEmailDomain: string; companyName: string };
  /** Queues the start of a recorded build (the runner's job). */
  queueStart: (buildId: number) => Promise<void>;
  now?: () => Date;
}

type User = Extract<Principal, { kind: "user" }>;

/** Who a build is recorded as started by: a signed-in user, or the Daily Run Scheduler. */
export type Starter = Pick<User, "email" | "name"> & { id: number | null };

/** Scheduled builds are recorded as started by the scheduler, not by a person. */
export const SCHEDULER: Starter = { id: null, email: "scheduler", name: "Daily Run Scheduler" };

const FAMILY_OF: Record<BuildList, { family: NewBuild["family"]; region: NewBuild["region"] }> = {
  frontend: { family: "frontend", region: "US" },
  china: { family: "frontend", region: "CHINA" },
  backend: { family: "backend", region: "US" },
  load: { family: "load", region: "US" },
};

export function listOf(row: Pick<BuildRow, "family" | "region">): BuildList {
  if (row.family === "frontend") return row.region === "CHINA" ? "china" : "frontend";
  return row.family;
}

/**
 * The API's record of a build: the spec's field names (section 3), plus who, where and which run.
 * `emails` false (a signed-out reader) leaves people's email addresses out (auth/people.ts).
 */
export function toBuild(row: BuildRow, emails = true): Build {
  return {
    id: row.id,
    family: row.family,
    region: row.region,
    TEST_RUN_NAME: row.test_run_name,
    NORA_SITE: row.nora_site,
    ENVIRONMENT: row.environment,
    BASE_URL: row.base_url,
    EXECUTOR: row.executor,
    TEST_TAG: row.test_tag,
    ENV: row.env,
    HOST: row.host,
    TEST_FILE: row.test_file,
    USERS: row.users,
    RUN_TIME: row.run_time,
    SPAWN_RATE: row.spawn_rate,
    mode: row.mode,
    sourceVersion: row.source_version,
    currentPhase: row.current_phase as BuildPhase,
    buildStatus: row.build_status as BuildStatus,
    startTime: row.start_time.toISOString(),
    endTime: row.end_time ? new Date(row.end_time).toISOString() : null,
    statusMessage: row.status_message,
    executorKind: row.executor_kind,
    externalId: row.external_id,
    externalUrl: row.external_url,
    test_run_key: row.test_run_key,
    rerunOf: row.rerun_of,
    startedBy: { email: emails ? row.started_by_email : null, name: row.started_by_name },
    payload: emails ? row.payload : withoutEmails(row.payload),
    logUrl:
      row.log_key !== null || row.remote_log !== null || row.executor_kind === "local"
        ? `/v1/builds/${row.id}/log`
        : null,
  };
}

/** A 400 naming each refused field with the spec's message; the first message leads. */
export function invalidBuild(error: z.ZodError): AppError {
  const details = error.issues.map((issue) => ({
    field: issue.path.join(".") || "(body)",
    message: issue.message,
  }));
  const message = details
    .map((d) => (d.field === "(body)" ? d.message : `${d.field}: ${d.message}`))
    .join("; ");
  return new AppError(400, "invalid_build", message, details);
}

/** The body validated by the same rules the list's dialog uses. */
export async function validatePayload(
  deps: BuildsDeps,
  list: BuildList,
  user: Starter,
  body: unknown,
): Promise<Record<string, unknown>> {
  // Only an OQ run needs the profile's credentials: other builds skip the lookup.
  const oq =
    typeof body === "object" && body !== null && (body as { mode?: unknown }).mode === "oq_test";
  const schema =
    list === "backend"
      ? BackendBuildSchema
      : list === "load"
        ? LoadBuildSchema
        : frontendBuildSchema({
            ...deps.catalog,
            hasSpiraCredentials:
              oq && user.id !== null && (await hasTestManagementCredentials(deps.db, user.id)),
          });
  const family = list === "china" ? "frontend" : list;
  const parsed = schema.safeParse(blankFieldsAsAbsent(family, body));
  if (!parsed.success) throw invalidBuild(parsed.error);
  return parsed.data as Record<string, unknown>;
}

/** Spec record fields of a validated payload. */
function recordFields(list: BuildList, payload: Record<string, unknown>) {
  const text = (key: string) =>
    typeof payload[key] === "string" ? (payload[key] as string) : null;
  const env = text("env");
  const base = {
    mode: String(payload.mode ?? payload.runType),
    source_version: String(payload.branch),
    test_tag: text("tag"),
  };
  if (list === "backend") {
    const isUrl = env !== null && env.startsWith("https://");
    return { ...base, environment: isUrl ? null : env, base_url: isUrl ? env : null };
  }
  if (list === "load") {
    return {
      ...base,
      env,
      host: text("host"),
      test_file: text("testFile"),
      users: payload.users as number,
      run_time: text("runTime"),
      spawn_rate: payload.spawnRate as number,
    };
  }
  return { ...base, nora_site: text("nora_site") };
}

async function checkRateLimit(deps: BuildsDeps, user: Starter, now: Date): Promise<void> {
  // The per-user limit protects against people; the scheduler launches at most one build a slot.
  if (user.id === null) return;
  const { builds, perMinutes } = deps.builds.rateLimit;
  const windowMs = perMinutes * 60_000;
  const starts = await repo.recentStarts(deps.db, user.id, new Date(now.getTime() - windowMs));
  if (starts.length < builds) return;
  const oldest = starts[starts.length - builds]!;
  const retryAfter = Math.max(1, Math.ceil((oldest.getTime() + windowMs - now.getTime()) / 1000));
  throw new AppError(
    429,
    "too_many_builds",
    `You started ${starts.length} builds in the last ${perMinutes} minute(s); the limit is ${builds}. Try again in ${retryAfter} s.`,
    { retryAfterSeconds: retryAfter },
  );
}

export interface NewBuildPlan {
  list: BuildList;
  payload: Record<string, unknown>;
  testRunKey?: string;
  attempt?: number;
  rerunOf?: "failed" | "unstable";
}

/** Records a build (who, when, what, where) and queues its start. */
export async function recordBuild(
  deps: BuildsDeps,
  user: Starter,
  plan: NewBuildPlan,
): Promise<Build> {
  const now = deps.now?.() ?? new Date();
  checkTargetHosts(plan.payload, deps.builds.allowLinkLocalTargets);
  await checkRateLimit(deps, user, now);
  const { family, region } = FAMILY_OF[plan.list];
  const executor =
    typeof plan.payload.executor === "string" ? plan.payload.executor : user.name || user.email;
  const row = await repo.insertBuild(deps.db, {
    family,
    region,
    executor_kind: deps.builds.executors[plan.list].kind,
    test_run_key: plan.testRunKey ?? newRunKey(family, now),
    rerun_of: plan.rerunOf ?? null,
    attempt: plan.attempt ?? 0,
    test_run_name: defaultRunName(now),
    executor,
    ...recordFields(plan.list, plan.payload),
    payload: JSON.stringify({ ...plan.payload, executor }),
    started_by_id: user.id,
    started_by_email: user.email,
    started_by_name: user.name,
    current_phase: "SUBMITTED",
    start_time: now,
    deadline: new Date(now.getTime() + deps.builds.timeLimitMinutes * 60_000),
  });
  await addEvent(deps.db, row.id, "queued", `Queued by ${user.name || user.email}.`);
  await deps.queueStart(row.id);
  return toBuild(row);
}

/** A build's history for the API, oldest first. */
export async function buildEvents(db: Kysely<Database>, id: number): Promise<BuildEvent[]> {
  const events = (await eventsOf(db, [id])).get(id) ?? [];
  return events.map((event) => ({
    at: event.at.toISOString(),
    kind: event.kind,
    server: event.server_id,
    message: event.message,
  }));
}

export async function createBuild(
  deps: BuildsDeps,
  list: BuildList,
  user: User,
  body: unknown,
): Promise<Build> {
  const payload = await validatePayload(deps, list, user, body);
  return recordBuild(deps, user, { list, payload });
}

export async function listBuilds(
  deps: BuildsDeps,
  list: BuildList,
  query: { page: number; page_size: number; test_run_key?: string },
  emails = true,
): Promise<BuildPage> {
  const { family, region } = FAMILY_OF[list];
  const { rows, total, active } = await repo.listBuilds(
    deps.db,
    { family, region, testRunKey: query.test_run_key },
    query.page,
    query.page_size,
  );
  const items = rows.map((row) => toBuild(row, emails));
  return { items, total, page: query.page, page_size: query.page_size, active };
}

export async function getBuildRow(db: Kysely<Database>, id: number): Promise<BuildRow> {
  const row = await repo.findBuild(db, id);
  if (!row)
    throw notFound(
      `There is no build ${id}. Builds are listed at ${Object.values(BUILD_LIST_PATHS).join(", ")}.`,
    );
  return row;
}

/** Spec rule reused for reruns: the run's site must still be one a build can be given. */
export function usableHost(value: string | null): string | undefined {
  return value !== null && isHostOrHttpsUrl(value) ? value : undefined;
}
