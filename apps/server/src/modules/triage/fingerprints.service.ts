import { createHash } from "node:crypto";
import { ANALYSIS_DAYS, fingerprintFailure, type FailureFingerprint } from "@assay/core";
import type { FastifyBaseLogger } from "fastify";
import type pg from "pg";
import { withTransaction, type Db } from "../../db/pool.js";
import { recordUnreadRuns } from "../runs/backfill.service.js";
import { runFailuresFor } from "../runs/failures.service.js";
import { applyPastDecisions } from "./decisions.repo.js";
import * as repo from "./fingerprints.repo.js";

export interface TriageSettings {
  /** ASSAY_TRIAGE_SIMILARITY: pg_trgm similarity a near match needs. */
  similarity: number;
}

/** The stored fingerprint: 16 hex digits of SHA-256 over core's key. */
export function fingerprintHash(fingerprint: FailureFingerprint): string {
  return createHash("sha256").update(fingerprint.key).digest("hex").slice(0, 16);
}

/**
 * Fingerprints a run's failed results and files them into failure groups, then runs the analysis
 * from past decisions on those without a decision. Called by ingest in the transaction that
 * stores the run (so an acknowledged upload is triaged), and by the backfill. Two statements
 * write whatever the number of failures (fingerprints.repo.ts).
 */
export async function recordRunFailures(
  client: pg.ClientBase,
  runId: number,
  settings: TriageSettings,
): Promise<void> {
  const found = await runFailuresFor(client, runId);
  if (!found || found.run.family === "load") return;
  const { run, failures } = found;
  const firstTime = await repo.upsertTriageRun(client, run);
  // Identical fingerprints are hashed once. (Whole texts are not memoized: their stacks differ
  // by test, and keying a map by 1 KB strings cost more than fingerprinting again.)
  const hashes = new Map<string, string>();
  const groups = new Map<string, repo.GroupInput>();
  const rows: repo.FingerprintRow[] = [];
  for (const failure of failures) {
    const fp = fingerprintFailure({
      name: failure.error_name,
      message: failure.error_message,
      stack: failure.error_stack,
    });
    let hash = hashes.get(fp.key);
    if (hash === undefined) {
      hash = fingerprintHash(fp);
      hashes.set(fp.key, hash);
    }
    const known = { hash, fp };
    const earlier = groups.get(known.hash);
    if (!earlier || failure.seen_at < earlier.seenAt) {
      groups.set(known.hash, {
        fingerprint: known.hash,
        errorType: known.fp.errorType,
        message: known.fp.message,
        frame: known.fp.frame,
        resultId: failure.id,
        seenAt: failure.seen_at,
      });
    }
    rows.push({
      resultId: failure.id,
      testId: failure.test_id,
      fingerprint: known.hash,
      platform: failure.platform,
      branch: failure.branch,
      site: failure.nora_site,
      seenAt: failure.seen_at,
    });
  }
  if (firstTime && failures.length === 0) return;
  await repo.storeRunFingerprints(
    client,
    { id: run.id, family: run.family, firstTime },
    [...groups.values()],
    rows,
  );
  if (failures.length > 0) {
    await applyPastDecisions(client, run.id, settings.similarity, ANALYSIS_DAYS);
  }
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
    done: repo.triagedRunIds,
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
  await withTransaction(db, (client) => repo.forgetAll(client));
  return backfillRuns(db, settings, undefined, untilRunId);
}
