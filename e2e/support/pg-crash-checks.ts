import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import type { Job } from "./crash-clients.js";
import { queryOnce } from "./scratch-postgres.js";

/**
 * The checks after a PostgreSQL crash campaign (apps/cli/src/pg-crash-campaign.test.ts): what
 * the clients were told was stored is there exactly once and whole, what they were not told is
 * absent or whole, and nothing is left half-written (rows without their parent, answers without
 * their run, attachment rows without their object).
 */
export interface CampaignFindings {
  problems: string[];
  runs: number;
  results: number;
  acknowledged: number;
  /** Acknowledged uploads that needed more than one attempt (same Idempotency-Key). */
  retried: number;
  /** Unreferenced object files (a screenshot put before a row that never committed). */
  orphanObjects: number;
}

interface RunRow {
  key: string;
  name: string;
  total: number;
  stored: number;
  attachments: number;
  state: string;
}

export async function checkCampaign(
  url: string,
  jobs: Job[],
  objectsDir: string,
): Promise<CampaignFindings> {
  const runs = await queryOnce<RunRow>(
    url,
    `SELECT r.test_run_key AS key, r.test_run_name AS name, r.total, r.state,
            (SELECT count(*)::int FROM results x WHERE x.run_id = r.id) AS stored,
            (SELECT count(*)::int FROM attachments a JOIN results x ON x.id = a.result_id
              WHERE x.run_id = r.id) AS attachments
       FROM runs r`,
  );
  const byKey = new Map(runs.map((r) => [r.key, r]));
  const byName = new Map<string, RunRow[]>();
  for (const run of runs) byName.set(run.name, [...(byName.get(run.name) ?? []), run]);
  const problems: string[] = [];
  let acknowledged = 0;
  let retried = 0;
  for (const job of jobs) {
    if (job.kind !== "live") {
      if (job.acknowledged) acknowledged++;
      if (job.acknowledged && job.attempts > 1) retried++;
      const stored = job.named ? (byName.get(job.runKey) ?? []) : [byKey.get(job.runKey)];
      const found = stored.filter((r) => r !== undefined);
      if (found.length > 1) problems.push(`${job.runKey}: stored ${found.length} times`);
      const run = found[0];
      if (!run) {
        if (job.acknowledged) problems.push(`${job.runKey}: acknowledged, not stored`);
      } else if (run.stored !== job.results) {
        problems.push(`${job.runKey}: ${run.stored} of ${job.results} results stored`);
      } else if (job.acknowledged && job.storedKey && run.key !== job.storedKey) {
        problems.push(`${job.runKey}: acknowledged as ${job.storedKey}, stored as ${run.key}`);
      }
      continue;
    }
    const run = byKey.get(job.runKey);
    const acked = job.batches.reduce((a, b) => a + b, 0);
    if (acked > 0) acknowledged += job.batches.length;
    const stored = run?.stored ?? 0;
    // Each batch is one transaction: 0, 3 or 8 results, never fewer than acknowledged.
    if (![0, 3, 8].includes(stored) || stored < acked) {
      problems.push(`${job.runKey}: ${stored} live results, ${acked} acknowledged`);
    }
    if (job.attachmentAcknowledged && (run?.attachments ?? 0) < 1) {
      problems.push(`${job.runKey}: acknowledged screenshot missing`);
    }
    if (job.finished && run?.state !== "finished") {
      problems.push(`${job.runKey}: finish acknowledged, run is ${run?.state}`);
    }
  }
  for (const run of runs) {
    if (run.total !== run.stored) {
      problems.push(`${run.key}: total ${run.total}, ${run.stored} stored`);
    }
  }
  // An answer kept for an Idempotency-Key whose run is not there: a replay would lie. Only
  // uploads' answers name a run; a live screenshot's answer is checked by the counts above.
  const answers = await queryOnce<{ key: string }>(
    url,
    `SELECT k.response->>'test_run_key' AS key FROM idempotency_keys k
      WHERE k.response ? 'test_run_key'
        AND NOT EXISTS (SELECT 1 FROM runs r WHERE r.test_run_key = k.response->>'test_run_key')`,
  );
  for (const a of answers) problems.push(`idempotency answer for ${a.key}: no such run`);
  const [children] = await queryOnce<{ results: number; attachments: number }>(
    url,
    `SELECT (SELECT count(*)::int FROM results x
              WHERE NOT EXISTS (SELECT 1 FROM runs r WHERE r.id = x.run_id)) AS results,
            (SELECT count(*)::int FROM attachments a
              WHERE NOT EXISTS (SELECT 1 FROM results x WHERE x.id = a.result_id)) AS attachments`,
  );
  if (children!.results) problems.push(`${children!.results} results without their run`);
  if (children!.attachments) {
    problems.push(`${children!.attachments} attachments without their result`);
  }
  const keys = await queryOnce<{ key: string }>(url, "SELECT object_key AS key FROM attachments");
  for (const { key } of keys) {
    if (!existsSync(path.join(objectsDir, key))) problems.push(`attachment ${key}: no object`);
  }
  const referenced = new Set(keys.map((k) => k.key));
  const files = readdirSync(objectsDir, { recursive: true, withFileTypes: true }).filter(
    (e) => e.isFile() && !e.name.startsWith("."),
  );
  const orphanObjects = files.filter(
    (e) => !referenced.has(path.relative(objectsDir, path.join(e.parentPath, e.name))),
  ).length;
  return {
    problems,
    runs: runs.length,
    results: runs.reduce((a, r) => a + r.stored, 0),
    acknowledged,
    retried,
    orphanObjects,
  };
}
