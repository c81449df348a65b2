import { RmsImportRowSchema, type RmsImportRow } from "@assay/core";
import type { Logger } from "pino";
import type { Db } from "../../db/pool.js";
import { jobQueue, type Jobs } from "../../jobs/jobs.js";
import { storeSyncedRequirements } from "../traceability/traceability.service.js";
import type { JiraConfig } from "./integrations.config.js";
import * as repo from "./integrations.repo.js";
import type { Trackers } from "./integrations.service.js";
import type { JiraClient, JiraIssue } from "./jira.client.js";

/**
 * The requirements sync: a pg-boss job that reads the requirements the configured JQL selects
 * (with their epic, type and linked bugs) from Jira and replaces the matrix's requirements with
 * them, on the schedule ASSAY_JIRA_SYNC_CRON and on demand from the screen. Everything is read
 * before anything is written, and the write is one transaction, so a failed sync keeps the last
 * good requirements; its row in tracker_syncs says why.
 */

export const SYNC_QUEUE = jobQueue<{ syncId?: number }>("tracker-sync", {
  // A failed sync is recorded and waits for the next slot or a click: no silent retries.
  retryLimit: 0,
  expireInSeconds: 30 * 60,
});

const FIELDS = ["summary", "issuetype", "status", "issuelinks", "parent"];

/** A Jira requirement as a matrix row: its bugs are the linked issues of the bug types. */
export function requirementOf(issue: JiraIssue, bugTypes: readonly string[]): RmsImportRow {
  const types = new Set(bugTypes.map((t) => t.toLowerCase()));
  const bugs = (issue.fields.issuelinks ?? []).flatMap((link) => {
    const other = link.outwardIssue ?? link.inwardIssue;
    const type = other?.fields?.issuetype?.name?.toLowerCase() ?? "";
    if (!other || !types.has(type)) return [];
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

export async function runJiraSync(
  db: Db,
  jira: JiraClient,
  config: JiraConfig,
  syncId: number,
): Promise<void> {
  const jql = config.requirementsJql;
  await repo.updateSync(db, syncId, { state: "running", started_at: new Date(), progress: null });
  try {
    if (!jql) throw new Error("No requirements JQL is set (ASSAY_JIRA_REQUIREMENTS_JQL).");
    const issues = await jira.search(jql, FIELDS, (fetched) =>
      repo.updateSync(db, syncId, { progress: `${fetched} requirements read` }),
    );
    if (issues.length === 0)
      throw new Error(`The JQL selected no requirements (${jql}); the last data is kept.`);
    const rows = issues.map((issue) => requirementOf(issue, config.bugTypes));
    await storeSyncedRequirements(db, { kind: "jira", query: jql }, rows);
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
export async function requestSync(db: Db, jobs: Jobs, requestedBy: string): Promise<number> {
  const queued = await repo.queueSync(db, "jira", requestedBy);
  if (queued.created) await jobs.send(SYNC_QUEUE, { syncId: queued.id });
  return queued.id;
}

/** The sync's worker and schedule, when a requirements JQL is configured. */
export async function registerSyncWorker(
  jobs: Jobs,
  deps: { db: Db; trackers: Trackers; log: Logger },
): Promise<void> {
  const { jira } = deps.trackers;
  const config = deps.trackers.config.jira;
  if (!jira || !config?.requirementsJql) return;
  await jobs.work(SYNC_QUEUE, async (data) => {
    let syncId = data.syncId;
    if (syncId === undefined) {
      const queued = await repo.queueSync(deps.db, "jira", "schedule");
      if (!queued.created) return; // one is already on its way
      syncId = queued.id;
    }
    await runJiraSync(deps.db, jira, config, syncId);
    const row = await repo.latestSync(deps.db, "jira");
    if (row?.state === "failed")
      deps.log.warn({ syncId, error: row.error }, "requirements sync from Jira failed");
  });
  await jobs.schedule(SYNC_QUEUE, config.syncCron, {});
}
