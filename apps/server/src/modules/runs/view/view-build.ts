import {
  NO_UNSTABLE,
  summarizeFailures,
  VIEW_ERROR_CHARS,
  isPendingFailure,
  type StatusCounts,
} from "@assay/core";
import type { Db } from "../../../db/pool.js";
import { derivedFields, toBackendRun, toFrontendRun, type StatusRules } from "../runs.mappers.js";
import { screenshotsBetween } from "../results.repo.js";
import type { FoundRun } from "../runs.repo.js";
import * as repo from "./run-view.repo.js";
import type { KeptView } from "./view-cache.js";
import type { ResultInput } from "./view-columns.js";
import { ViewResultsBuilder } from "./view-columns-builder.js";
import { lowerTag } from "./view-filter.js";

/**
 * Builds a run's view (view-cache.ts) from its final results: each result's fields as the rows send
 * them (view-columns.ts), with the derived status, tickets and pending reason worked out from the whole message before the
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

/** The counts, Failed Summary and tag options of the whole run, as its results are added. */
class SummaryOf {
  private readonly counts: StatusCounts = {
    total: 0,
    passed: 0,
    failed: 0,
    skipped: 0,
    unstable: 0,
  };
  /** With their ids: the Failed Summary lists tests in report order, whatever order rows came. */
  private readonly failed: { id: number; test_id: number; tags: readonly string[] }[] = [];
  private readonly options = new Set<string>();

  constructor(private readonly rules: BuildRules) {}

  add(result: ResultInput): void {
    this.counts.total++;
    this.counts[result.status]++;
    if (result.status === "failed") {
      this.failed.push({ id: result.id, test_id: result.test_id, tags: result.tags });
    }
    for (const tag of result.tags) if (!this.rules.isIdTag(tag)) this.options.add(lowerTag(tag));
  }

  done() {
    this.options.delete("");
    return {
      counts: this.counts,
      failed_groups: summarizeFailures(
        this.failed.sort((a, b) => a.id - b.id),
        this.rules.majorTags,
      ),
      tag_options: [...this.options].sort(),
    };
  }
}

/** The fields only one family's results have: the frontend card's, or the backend row's attempt. */
type FamilyFields = Pick<
  ResultInput,
  | "flaky"
  | "error_message"
  | "error_cut"
  | "tickets"
  | "nora_site"
  | "chrome_version"
  | "platform"
  | "commit_hash"
  | "screenshot"
  | "attempt"
>;

/**
 * One result's input, made as one literal with the family's fields copied in by name: spreading
 * a shared part into each of 100,000 objects cost ~15 µs a result in a profile of the server
 * (its first open took 4-8 s of CPU instead of ~1.5 s); a small object of the family's fields
 * costs next to nothing.
 */
function inputOf(
  row: repo.FrontendViewDbRow | repo.BackendViewDbRow,
  derived: ReturnType<typeof derivedFields>,
  own: FamilyFields,
): ResultInput {
  return {
    id: row.id,
    test_run_test_id: row.test_run_test_id,
    test_id: row.test_id,
    name: row.name,
    title: row.title,
    scenario: row.scenario,
    status: derived.derived_status,
    raw: row.status,
    pending: isPendingFailure(row.error_message),
    start_ms: row.start_ms,
    duration_ms: row.duration_ms,
    tags: row.tags,
    pending_reason: derived.pending_reason,
    flaky: own.flaky,
    error_message: own.error_message,
    error_cut: own.error_cut,
    tickets: own.tickets,
    nora_site: own.nora_site,
    chrome_version: own.chrome_version,
    platform: own.platform,
    commit_hash: own.commit_hash,
    screenshot: own.screenshot,
    attempt: own.attempt,
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
  const results = new ViewResultsBuilder("frontend", lowerTag);
  const summary = new SummaryOf(rules);
  let unstable = 0;
  // The run's lowest and highest result ids: where its screenshots are.
  let firstId = Infinity;
  let lastId = 0;
  await repo.eachFrontendViewRow(db, run.id, (row) => {
    const derived = derivedFields(row, rules);
    if (derived.derived_status === "unstable") unstable++;
    const failed = derived.derived_status === "failed" || derived.derived_status === "unstable";
    // A card shows the message of a failure only, and only its first lines.
    const [error, isCut] = failed ? cut(row.error_message) : [null, false];
    const input = inputOf(row, derived, {
      flaky: row.flaky,
      error_message: error,
      error_cut: isCut,
      tickets: derived.tickets,
      nora_site: row.nora_site,
      chrome_version: row.chrome_version,
      platform: row.platform,
      commit_hash: row.commit_hash,
      screenshot: null,
    });
    results.add(input);
    summary.add(input);
    firstId = Math.min(firstId, row.id);
    lastId = Math.max(lastId, row.id);
  });
  if (lastId > 0) {
    const shots = await screenshotsBetween(db, firstId, lastId);
    for (const [resultId, key] of shots) results.screenshot(resultId, key);
  }
  return {
    ...baseView(run, version),
    run: toFrontendRun(run, unstable),
    results: results.done(),
    summary: summary.done(),
  };
}

export async function buildBackendView(
  db: Db,
  run: FoundRun,
  version: string,
  rules: BuildRules,
): Promise<KeptView> {
  const results = new ViewResultsBuilder("backend", lowerTag);
  const backendRules = { ...rules, unstableTestIds: NO_UNSTABLE };
  const summary = new SummaryOf(backendRules);
  await repo.eachBackendViewRow(db, run.id, (row) => {
    const input = inputOf(row, derivedFields(row, backendRules), { attempt: row.attempt });
    results.add(input);
    summary.add(input);
  });
  return {
    ...baseView(run, version),
    run: toBackendRun(run),
    results: results.done(),
    summary: summary.done(),
  };
}
