import { RmsImportRowSchema, type RmsImportRow } from "@assay/core";
import type { Logger } from "pino";
import type { Db } from "../../db/pool.js";
import { jobQueue, type Jobs } from "../../jobs/jobs.js";
import { storeSyncedRequirements } from "../traceability/traceability.service.js";
import type { JiraConfig, SpiraConfig } from "./integrations.config.js";
import * as repo from "./integrations.repo.js";
import type { Trackers } from "./integrations.service.js";
import type { JiraClient, JiraIssue } from "./jira.client.js";
import type { SpiraClient } from "./spira.client.js";
import { spiraRequirementRows } from "./spira-requirements.js";

/**
 * The requirements sync: a pg-boss job that reads the matrix's requirements from the tracker
 * configured for them and replaces the matrix's requirements with them, on that tracker's
 * schedule and on demand from the screen. Jira: the issues the requirements JQL selects, with
 * their epic, type and linked bugs. Spira: every requirement of the project, read with the
 * service account (spira-requirements.ts). Everything is read before anything is written, and
 * the write is one transaction, so a failed sync keeps the last good requirements; its row in
 * tracker_syncs says why.
 */

export const SYNC_QUEUE = jobQueue<{ syncId?: number }>("tracker-sync", {
  // A failed sync is recorded and waits for the next slot or a click: no silent retries.
  retryLimit: 0,
  expireInSeconds: 30 * 60,
});

const FIELDS = ["summary", "issuetype", "status", "issuelinks", "parent"];

/** A Jira requirement as a matrix row: its bugs are the linked issues of the bug types. */
export function requirementOf(
  issue: JiraIssue,
  bugTypes: readonly string[],
  linkTypes: readonly string[] = [],
): RmsImportRow {
  const types = new Set(bugTypes.map((t) => t.toLowerCase()));
  const links = new Set(linkTypes.map((t) => t.toLowerCase()));
  const bugs = (issue.fields.issuelinks ?? []).flatMap((link) => {
    const other = link.outwardIssue ?? link.inwardIssue;
    const type = other?.fields?.issuetype?.name?.toLowerCase() ?? "";
    if (!other || !types.has(type)) return [];
    // Link type names are the site's own (docs/integrations.md): none set, any link counts.
    if (links.size > 0 && !links.has(link.type.name.toLowerCase())) return [];
    return [
      {
        key: other.key,
        summary: other.fields?.summary ?? "",
        status: other.fields?.status?.name ?? "",
      },
    ];
  });
  const parent = issue.fields.parent as { fields?: { summary?: string } } | undefined;
  // The schema trims and caps the texts as an import does; Jira's words stay data.
  return RmsImportRowSchema.parse({
    rms: issue.key,
    summary: (issue.fields.summary ?? "").slice(0, 2000),
    epic: (parent?.fields?.summary ?? "").slice(0, 200),
    type: (issue.fields.issuetype?.name ?? "").slice(0, 100),
    bugs: [...new Map(bugs.map((bug) => [bug.key, bug])).values()],
  });
}

/** Where the matrix's requirements are synced from, and how they are read. */
export interface RequirementsSource {
  tracker: "jira" | "spira";
  /** Shown as the matrix's source: the JQL, or the Spira project. */
  query: string;
  cron: string;
  read(progress: (read: number) => Promise<void>): Promise<RmsImportRow[]>;
}

function jiraSource(jira: JiraClient, config: JiraConfig): RequirementsSource | undefined {
  const jql = config.requirementsJql;
  if (!jql) return undefined;
  const wanted = new Set(config.requirementTypes.map((t) => t.toLowerCase()));
  return {
    tracker: "jira",
    query: jql,
    cron: config.syncCron,
    read: async (progress) => {
      const issues = await jira.search(jql, FIELDS, progress);
      const rows = issues
        .filter(
          (issue) =>
            wanted.size === 0 || wanted.has(issue.fields.issuetype?.name?.toLowerCase() ?? ""),
        )
        .map((issue) => requirementOf(issue, config.bugTypes, config.linkTypes));
      if (rows.length === 0)
        throw new Error(`The JQL selected no requirements (${jql}); the last data is kept.`);
      return rows;
    },
  };
}

function spiraSource(spira: SpiraClient, config: SpiraConfig): RequirementsSource | undefined {
  const credentials = spira.serviceCredentials;
  if (!config.requirementsSync || !credentials) return undefined;
  const project = `Spira project ${config.projectId}`;
  return {
    tracker: "spira",
    query: project,
    cron: config.syncCron,
    read: async (progress) => {
      const rows = spiraRequirementRows(await spira.requirements(credentials, progress));
      if (rows.length === 0)
        throw new Error(`${project} has no requirements to sync; the last data is kept.`);
      return rows;
    },
  };
}

/** The configured requirements source (config refuses both at once), if any. */
export function requirementsSource(trackers: Trackers): RequirementsSource | undefined {
  const { jira, spira, config } = trackers;
  return (
    (jira && config.jira ? jiraSource(jira, config.jira) : undefined) ??
    (spira && config.spira ? spiraSource(spira, config.spira) : undefined)
  );
}

export async function runSync(db: Db, source: RequirementsSource, syncId: number): Promise<void> {
  await repo.updateSync(db, syncId, { state: "running", started_at: new Date(), progress: null });
  try {
    const rows = await source.read((read) =>
      repo.updateSync(db, syncId, { progress: `${read} requirements read` }),
    );
    await storeSyncedRequirements(db, { kind: source.tracker, query: source.query }, rows);
    await repo.updateSync(db, syncId, {
      state: "succeeded",
      finished_at: new Date(),
      progress: `${rows.length} requirements`,
      error: null,
    });
  } catch (error) {
    await repo.updateSync(db, syncId, {
      state: "failed",
      finished_at: new Date(),
      error: (error as Error).message.slice(0, 1000),
    });
  }
}

/** Queues a sync unless one is queued or running; answers the sync's id. */
export async function requestSync(
  db: Db,
  jobs: Jobs,
  tracker: "jira" | "spira",
  requestedBy: string,
): Promise<number> {
  const queued = await repo.queueSync(db, tracker, requestedBy);
  if (queued.created) await jobs.send(SYNC_QUEUE, { syncId: queued.id });
  return queued.id;
}

/** The sync's worker and schedule, when a requirements source is configured. */
export async function registerSyncWorker(
  jobs: Jobs,
  deps: { db: Db; trackers: Trackers; log: Logger },
): Promise<void> {
  const source = requirementsSource(deps.trackers);
  if (!source) return;
  await jobs.work(SYNC_QUEUE, async (data) => {
    let syncId = data.syncId;
    if (syncId === undefined) {
      const queued = await repo.queueSync(deps.db, source.tracker, "schedule");
      if (!queued.created) return; // one is already on its way
      syncId = queued.id;
    }
    await runSync(deps.db, source, syncId);
    const row = await repo.latestSync(deps.db, source.tracker);
    if (row?.state === "failed")
      deps.log.warn(
        { syncId, tracker: source.tracker, error: row.error },
        "requirements sync failed",
      );
  });
  await jobs.schedule(SYNC_QUEUE, source.cron, {});
}
