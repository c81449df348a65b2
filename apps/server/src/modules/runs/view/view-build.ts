import {
  NO_UNSTABLE,
  summarizeFailures,
  VIEW_ERROR_CHARS,
  isPendingFailure,
  type StatusCounts,
} from "@assay/core";
import type { Db } from "../../../db/pool.js";
import { derivedFields, toBackendRun, toFrontendRun, type StatusRules } from "../runs.mappers.js";
import type { FoundRun } from "../runs.repo.js";
import * as repo from "./run-view.repo.js";
import type { KeptResult, KeptView } from "./view-cache.js";
import { lowerTag } from "./view-filter.js";

/**
 * Builds a run's view (view-cache.ts) from its final results: each result's row as sent, with
 * the derived status, tickets and pending reason worked out from the whole message before the
 * card's cut of it, and the counts and Failed Summary of the whole run.
 */

export interface BuildRules extends StatusRules {
  majorTags: readonly string[];
  /** Whether a tag only carries a stable test id: such tags are no filter option. */
  isIdTag: (tag: string) => boolean;
}

function cut(text: string | null): [string | null, boolean] {
  if (text === null || text.length <= VIEW_ERROR_CHARS) return [text, false];
  return [text.slice(0, VIEW_ERROR_CHARS), true];
}

function summaryOf(results: readonly KeptResult[], tags: readonly string[][], rules: BuildRules) {
  const counts: StatusCounts = { total: 0, passed: 0, failed: 0, skipped: 0, unstable: 0 };
  const failed: { test_id: number; tags: readonly string[] }[] = [];
  const options = new Set<string>();
  results.forEach((result, index) => {
    counts.total++;
    counts[result.status]++;
    const own = tags[index]!;
    if (result.status === "failed") failed.push({ test_id: result.test_id, tags: own });
    for (const tag of own) if (!rules.isIdTag(tag)) options.add(lowerTag(tag));
  });
  options.delete("");
  return {
    counts,
    failed_groups: summarizeFailures(failed, rules.majorTags),
    tag_options: [...options].sort(),
  };
}

function kept(
  row: {
    id: number;
    test_id: number;
    test_run_test_id: string;
    status: KeptResult["raw"];
    tags: string[];
  },
  extra: { error_message: string | null; start_time: Date | null },
  status: KeptResult["status"],
  sent: readonly unknown[],
): KeptResult {
  return {
    row: sent,
    id: row.id,
    test_id: row.test_id,
    test_run_test_id: row.test_run_test_id,
    status,
    tags: row.tags.map(lowerTag),
    raw: row.status,
    pending: isPendingFailure(extra.error_message),
    start_time: extra.start_time,
  };
}

function baseView(run: FoundRun, version: string) {
  return {
    version,
    runId: run.id,
    runStart: run.started_at ?? run.created_at,
    warnings: run.warnings,
  };
}

export async function buildFrontendView(
  db: Db,
  run: FoundRun,
  version: string,
  rules: BuildRules,
): Promise<KeptView> {
  const rows = await repo.listFrontendViewRows(db, run.id);
  let unstable = 0;
  const results = rows.map((row) => {
    const derived = derivedFields(row, rules);
    if (derived.derived_status === "unstable") unstable++;
    const failed = derived.derived_status === "failed" || derived.derived_status === "unstable";
    // A card shows the message of a failure only, and only its first lines.
    const [error, isCut] = failed ? cut(row.error_message) : [null, false];
    const sent = [
      row.id,
      row.test_run_test_id,
      row.test_id,
      row.name,
      row.title,
      row.scenario,
      derived.derived_status,
      row.flaky,
      row.duration_ms,
      row.tags,
      error,
      isCut,
      derived.tickets,
      derived.pending_reason,
      row.nora_site,
      row.chrome_version,
      row.platform,
      row.commit_hash,
      row.screenshot,
    ];
    return kept(row, row, derived.derived_status, sent);
  });
  return {
    ...baseView(run, version),
    run: toFrontendRun(run, unstable),
    results,
    summary: summaryOf(
      results,
      rows.map((row) => row.tags),
      rules,
    ),
  };
}

export async function buildBackendView(
  db: Db,
  run: FoundRun,
  version: string,
  rules: BuildRules,
): Promise<KeptView> {
  const rows = await repo.listBackendViewRows(db, run.id);
  const backendRules = { ...rules, unstableTestIds: NO_UNSTABLE };
  const results = rows.map((row) => {
    const derived = derivedFields(row, backendRules);
    const sent = [
      row.id,
      row.test_run_test_id,
      row.test_id,
      row.name,
      row.title,
      row.scenario,
      derived.derived_status,
      row.attempt,
      row.duration_ms,
      derived.pending_reason,
    ];
    return kept(row, row, derived.derived_status, sent);
  });
  return {
    ...baseView(run, version),
    run: toBackendRun(run),
    results,
    summary: summaryOf(
      results,
      rows.map((row) => row.tags),
      backendRules,
    ),
  };
}
