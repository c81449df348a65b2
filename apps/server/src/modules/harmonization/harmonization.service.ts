import {
  DH_PLATFORM_TYPES,
  dhReportKind,
  dhTotals,
  type DataHarmonizationConfig,
  type DhEnvironmentOption,
  type DhPlatform,
  type DhRun,
  type DhRunChanges,
  type DhRunSummary,
  type DhType,
  type StartDhRunBody,
} from "@assay/core";
import type { DataHarmonizationSettings } from "../../config.js";
import type { Db } from "../../db/pool.js";
import { AppError, badRequest, notFound } from "../../errors.js";
import type { Jobs } from "../../jobs/jobs.js";
import { isBuiltInSource, type ConnectorContext } from "./connectors/index.js";
import {
  createOrJoinRun,
  findRun,
  listRows,
  listRuns,
  previousFinishedRun,
  type RunKey,
  type RunRecord,
} from "./harmonization.repo.js";
import { compareQueue } from "./harmonization.runner.js";

export interface DhDeps {
  db: Db;
  jobs: Jobs;
  settings: DataHarmonizationSettings | undefined;
  /** How connectors reach the sources (Find missing rows reads them during a request). */
  context?: ConnectorContext;
}

const NOT_CONFIGURED =
  "Data harmonization is not configured: add a dataHarmonization section to assay.config.yaml (see docs/configuration.md).";

function configOf(deps: DhDeps): DataHarmonizationConfig {
  if (!deps.settings) throw new AppError(409, "not_configured", NOT_CONFIGURED);
  return deps.settings.config;
}

function builtIn(config: DataHarmonizationConfig, names: (string | undefined)[]): boolean {
  const sources = names.filter((n): n is string => n !== undefined).map((n) => config.sources[n]);
  return sources.length > 0 && sources.every((s) => s !== undefined && isBuiltInSource(s));
}

/** GET {platform}/{type}/{envType}/environments: the environments offered by the selector. */
export function environmentOptions(
  deps: DhDeps,
  platform: Exclude<DhPlatform, "global">,
  type: DhType,
  envType: string,
): DhEnvironmentOption[] {
  if (!deps.settings) return [];
  const config = deps.settings.config;
  return config.environments[platform]
    .filter((e) => e.type === type && e.envType === envType)
    .map((e) => ({
      value: e.value,
      alias: e.alias,
      active: e.active,
      envType: e.envType,
      demo: builtIn(config, [
        e.source,
        e.destination,
        e.fhir?.files,
        e.fhir?.docdb,
        e.fhir?.redshift,
        e.sfdc?.files,
        e.sfdc?.mysql,
      ]),
    }));
}

/** getGlobalSchemaEnvironments: the global environments (every schema lives in each). */
export function globalEnvironmentOptions(deps: DhDeps): DhEnvironmentOption[] {
  if (!deps.settings) return [];
  const config = deps.settings.config;
  return config.global.environments.map((e) => ({
    value: e.value,
    alias: e.alias,
    active: e.active,
    envType: e.envType,
    demo: builtIn(config, [e.mysql, e.redshift]),
  }));
}

/** The run key of a request: Global runs are per schema and environment type. */
export function runKey(
  body: Pick<StartDhRunBody, "platform" | "type" | "env" | "schema" | "envType">,
): RunKey {
  if (body.platform === "global")
    return { platform: "global", type: "sql", env: body.envType, schema: body.schema ?? "" };
  return { platform: body.platform, type: body.type, env: body.env, schema: "" };
}

/** Run Report: a queued comparison, or the one already running for this environment. */
export async function startRun(
  deps: DhDeps,
  body: StartDhRunBody,
  startedBy: string,
): Promise<{ run: DhRunSummary; created: boolean }> {
  const config = configOf(deps);
  const offered = DH_PLATFORM_TYPES[body.platform].find((t) => t.type === body.type);
  if (!offered || offered.disabled)
    throw badRequest(`The ${body.platform} platform does not offer type ${body.type}.`);
  let demo: boolean;
  if (body.platform === "global") {
    if (!body.schema) throw badRequest("Choose a Global Schema (trial, admin, ...) first.");
    const envs = config.global.environments.filter((e) => e.active && e.envType === body.envType);
    if (envs.length === 0)
      throw badRequest(`No active global ${body.envType} environment is configured.`);
    demo = envs.every((e) => builtIn(config, [e.mysql, e.redshift]));
  } else {
    const option = environmentOptions(deps, body.platform, body.type, body.envType).find(
      (e) => e.value === body.env,
    );
    if (!option)
      throw badRequest(
        `No ${body.platform} ${body.type} ${body.envType} environment "${body.env}": choose one from the Environment list.`,
      );
    if (!option.active) throw badRequest(`The environment "${body.env}" is not active.`);
    demo = option.demo;
  }
  const key = runKey(body);
  const { run, created } = await createOrJoinRun(deps.db, {
    ...key,
    envType: body.envType,
    kind: dhReportKind(body.platform, body.type, body.env),
    demo,
    startedBy,
  });
  if (created) await deps.jobs.send(compareQueue, { runId: run.id });
  return { run: summaryOf(run, []), created };
}

function summaryOf(run: RunRecord, rows: { status: string }[]): DhRunSummary {
  return {
    id: run.id,
    platform: run.platform as DhRun["platform"],
    type: run.type as DhRun["type"],
    envType: run.envType as DhRun["envType"],
    env: run.env,
    schema: (run.schema || null) as DhRun["schema"],
    kind: run.kind as DhRun["kind"],
    state: run.state as DhRun["state"],
    error: run.error,
    demo: run.demo,
    startedBy: run.startedBy,
    createdAt: run.createdAt.toISOString(),
    finishedAt: run.finishedAt?.toISOString() ?? null,
    totals: dhTotals(rows),
  };
}

export async function getRun(db: Db, id: number): Promise<DhRun> {
  const run = await findRun(db, id);
  if (!run) throw notFound(`No data harmonization run ${id}.`);
  const rows = await listRows(db, id);
  return { ...summaryOf(run, rows), rows };
}

/** The environment's recent runs, newest first (reopen the last one, pick one to compare). */
export async function recentRuns(db: Db, key: RunKey): Promise<DhRunSummary[]> {
  const runs = await listRuns(db, key, 20);
  return Promise.all(runs.map(async (run) => summaryOf(run, await listRows(db, run.id))));
}

/** The latest run of an environment, for the spec's read calls; 404 before the first run. */
export async function latestRun(db: Db, key: RunKey): Promise<DhRun> {
  const [run] = await listRuns(db, key, 1);
  if (!run) throw notFound(`No report for ${key.env} yet: choose it and press Run Report.`);
  return getRun(db, run.id);
}

/** Which entities changed status or difference since the previous finished run. */
export async function runChanges(db: Db, id: number): Promise<DhRunChanges> {
  const run = await findRun(db, id);
  if (!run) throw notFound(`No data harmonization run ${id}.`);
  const previous = await previousFinishedRun(db, run);
  if (!previous) return { previousRunId: null, changes: [] };
  const shape = (r: { status: string; difference?: number | null | undefined }) => ({
    status: r.status,
    difference: r.difference ?? null,
  });
  const before = new Map((await listRows(db, previous.id)).map((r) => [r.entity, shape(r)]));
  const after = new Map((await listRows(db, id)).map((r) => [r.entity, shape(r)]));
  const changes = [...new Set([...before.keys(), ...after.keys()])]
    .map((entity) => ({
      entity,
      before: before.get(entity) ?? null,
      after: after.get(entity) ?? null,
    }))
    .filter((c) => JSON.stringify(c.before) !== JSON.stringify(c.after));
  return { previousRunId: previous.id, changes };
}
