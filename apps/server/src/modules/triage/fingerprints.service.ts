import { createHash } from "node:crypto";
import { ANALYSIS_DAYS, fingerprintFailure, type FailureFingerprint } from "@assay/core";
import type { FastifyBaseLogger } from "fastify";
import type pg from "pg";
import { withTransaction, type Db } from "../../db/pool.js";
import { forgetPending, readOrMarked } from "../pending/pending.service.js";
import { recordUnreadRuns } from "../runs/backfill.service.js";
import { eachFailureOf, type RunFacts } from "../runs/failures.service.js";
import { applyPastDecisions } from "./decisions.repo.js";
import * as repo from "./fingerprints.repo.js";

export interface TriageSettings {
  /** ASSAY_TRIAGE_SIMILARITY: pg_trgm similarity a near match needs. */
  similarity: number;
}

/** The stored fingerprint (failure_groups.fingerprint): 16 hex digits of SHA-256 over core's key. */
export function fingerprintHash(key: FailureFingerprint["key"]): string {
  return createHash("sha256").update(key).digest("hex").slice(0, 16);
}

/**
 * Reads a run's failed results back, fingerprints them and files them into failure groups, then
 * runs the analysis from past decisions on those without a decision. Called for a run its upload
 * marked, right after the upload's commit or by the first read that needs it
 * (pending.service.ts), and by the backfill. Two statements write whatever the number of
 * failures (fingerprints.repo.ts).
 */
export async function recordRunFailures(
  client: pg.ClientBase,
  runId: number,
  settings: TriageSettings,
): Promise<void> {
  const found = await readFailures(client, runId);
  if (!found || found.run.family === "load") return;
  const { run: facts, groups, rows } = found;
  const firstTime = await repo.upsertTriageRun(client, facts);
  if (firstTime && rows.length === 0) return;
  await repo.storeRunFingerprints(
    client,
    { id: facts.id, family: facts.family, firstTime },
    [...groups.values()],
    rows,
  );
  if (rows.length > 0) {
    await applyPastDecisions(client, facts.id, settings.similarity, ANALYSIS_DAYS);
  }
}

/**
 * The run's failures read back from the database and fingerprinted as they arrive, each filed
 * as a row of its group; a group keeps the cause of its earliest failure. A failure's texts are
 * let go once fingerprinted instead of all being held until the last was read (about a quarter of
 * what triaging a run left in the old generation: docs/performance.md, "Session 40"). Rows arrive a
 * network read at a time, and the event loop turns between two reads.
 */
async function readFailures(
  client: pg.ClientBase,
  runId: number,
): Promise<{
  run: RunFacts;
  groups: Map<string, repo.GroupInput>;
  rows: repo.FingerprintRow[];
} | null> {
  // Whole texts are not memoized: their stacks differ by test, and keying a map by 1 KB strings
  // cost more than fingerprinting again. Identical fingerprints are hashed once.
  const hashes = new Map<string, string>();
  const groups = new Map<string, repo.GroupInput>();
  const rows: repo.FingerprintRow[] = [];
  const run = await eachFailureOf(client, runId, (failure) => {
    const { key, ...cause } = fingerprintFailure({
      name: failure.error_name,
      message: failure.error_message,
      stack: failure.error_stack,
    });
    let hash = hashes.get(key);
    if (hash === undefined) {
      hash = fingerprintHash(key);
      hashes.set(key, hash);
    }
    const seenAt = failure.seen_at;
    const earlier = groups.get(hash);
    if (!earlier || seenAt < earlier.seenAt) {
      groups.set(hash, {
        fingerprint: hash,
        errorType: cause.errorType,
        message: cause.message,
        frame: cause.frame,
        resultId: failure.id,
        seenAt,
      });
    }
    rows.push({
      resultId: failure.id,
      testId: failure.test_id,
      fingerprint: hash,
      platform: failure.platform,
      branch: failure.branch,
      site: failure.nora_site,
      seenAt,
    });
  });
  return run && { run, groups, rows };
}

/**
 * Fingerprints every stored run triage has not read yet (runs stored before triage existed),
 * oldest first so first-seen is right, each run in its own transaction. Returns how many.
 */
export async function backfillRuns(
  db: Db,
  settings: TriageSettings,
  log?: FastifyBaseLogger,
  /** Only runs up to this id (the demo classifies its older failures before the newest runs). */
  untilRunId?: number,
): Promise<number> {
  const done = await recordUnreadRuns(db, {
    done: readOrMarked("triage", repo.triagedRunIds),
    record: (client, runId) => recordRunFailures(client, runId, settings),
    ...(untilRunId === undefined ? {} : { untilRunId }),
  });
  if (done > 0) log?.info({ runs: done }, "triage: stored runs fingerprinted");
  return done;
}

/** Triage derived again from the stored runs (the demo, after dating its runs in the past). */
export async function retriage(
  db: Db,
  settings: TriageSettings,
  untilRunId?: number,
): Promise<number> {
  await withTransaction(db, async (client) => {
    // The marks first, as a step takes its run's mark before writing: a step at work is waited
    // for here, before the tables are truncated. The other order deadlocked with it (the demo's
    // last uploads' steps, seen in a demo load that then never finished).
    await forgetPending(client, "triage");
    await repo.forgetAll(client);
  });
  return backfillRuns(db, settings, undefined, untilRunId);
}
