import { ANALYSIS_DAYS, fingerprintFailure } from "@assay/core";
import type { FastifyBaseLogger } from "fastify";
import type pg from "pg";
import { withTransaction, type Db } from "../../db/pool.js";
import { recordUnreadRuns } from "../runs/backfill.service.js";
import {
  fingerprintHash,
  type Cause,
  type WrittenFailure,
} from "../ingest/pipeline/result-failures.js";
import { runFacts, runFailuresFor, type RunFacts } from "../runs/failures.service.js";
import { applyPastDecisions } from "./decisions.repo.js";
import * as repo from "./fingerprints.repo.js";

export interface TriageSettings {
  /** ASSAY_TRIAGE_SIMILARITY: pg_trgm similarity a near match needs. */
  similarity: number;
}

/** A failure as it is filed: its result, test, cause and the facts the Failures screen filters by. */
interface Failure {
  resultId: number;
  testId: number;
  /** Its cause's fingerprint (fingerprintHash). */
  hash: string;
  /** The cause's words: with at least the first failure of each cause. */
  cause?: Cause;
  platform: string | null;
  branch: string | null;
  site: string | null;
  seenAt: Date;
}

/**
 * Fingerprints a run's failed results and files them into failure groups, then runs the analysis
 * from past decisions on those without a decision. Called for a run its upload marked, right after
 * the upload's commit or by the first read that needs it (pending.service.ts), and by the
 * backfill. Two statements
 * write whatever the number of failures (fingerprints.repo.ts). `written`: the run's failures
 * as its upload fingerprinted them while parsing, when that upload wrote all of them
 * (ingest's result-failures.ts); without them the run's failures are read and fingerprinted here.
 */
export async function recordRunFailures(
  client: pg.ClientBase,
  runId: number,
  settings: TriageSettings,
  written?: readonly WrittenFailure[],
): Promise<void> {
  const found = written
    ? await writtenFailures(client, runId, written)
    : await readFailures(client, runId);
  if (!found || found.run.family === "load") return;
  const { run: facts, failures } = found;
  const firstTime = await repo.upsertTriageRun(client, facts);
  if (firstTime && failures.length === 0) return;
  const causes = new Map<string, Cause>();
  const groups = new Map<string, repo.GroupInput>();
  const rows: repo.FingerprintRow[] = [];
  for (const failure of failures) {
    const hash = failure.hash;
    if (failure.cause) causes.set(hash, failure.cause);
    const earlier = groups.get(hash);
    if (!earlier || failure.seenAt < earlier.seenAt) {
      const cause = causes.get(hash) ?? earlier;
      if (!cause) throw new Error(`triage: the cause of result ${failure.resultId} is missing`);
      groups.set(hash, {
        fingerprint: hash,
        errorType: cause.errorType,
        message: cause.message,
        frame: cause.frame,
        resultId: failure.resultId,
        seenAt: failure.seenAt,
      });
    }
    rows.push({
      resultId: failure.resultId,
      testId: failure.testId,
      fingerprint: hash,
      platform: failure.platform,
      branch: failure.branch,
      site: failure.site,
      seenAt: failure.seenAt,
    });
  }
  await repo.storeRunFingerprints(
    client,
    { id: facts.id, family: facts.family, firstTime },
    [...groups.values()],
    rows,
  );
  if (failures.length > 0) {
    await applyPastDecisions(client, facts.id, settings.similarity, ANALYSIS_DAYS);
  }
}

/** An upload's failures (see filed), with the run's facts. */
async function writtenFailures(
  client: pg.ClientBase,
  runId: number,
  written: readonly WrittenFailure[],
): Promise<{ run: RunFacts; failures: Failure[] } | null> {
  const run = await runFacts(client, runId);
  return run && { run, failures: written.map((failure) => filed(failure, run)) };
}

/**
 * An upload's failure with the run's facts where the result has none, as the read of the run's
 * failures (runs/failures.repo.ts) fills them in.
 */
function filed(failure: WrittenFailure, run: RunFacts): Failure {
  const start = failure.start === null ? undefined : new Date(failure.start);
  return {
    resultId: failure.resultId,
    testId: failure.testId,
    hash: failure.hash,
    ...(failure.cause && { cause: failure.cause }),
    platform: failure.platform,
    branch: failure.branch ?? run.branch,
    site: failure.site ?? run.site,
    seenAt: start && !Number.isNaN(start.getTime()) ? start : run.at,
  };
}

/** The run's failures read back from the database, and fingerprinted. */
async function readFailures(
  client: pg.ClientBase,
  runId: number,
): Promise<{ run: RunFacts; failures: Failure[] } | null> {
  const found = await runFailuresFor(client, runId);
  if (!found) return null;
  // Whole texts are not memoized: their stacks differ by test, and keying a map by 1 KB strings
  // cost more than fingerprinting again. Identical fingerprints are hashed once.
  const hashes = new Map<string, string>();
  const failures = found.failures.map((failure): Failure => {
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
    return {
      resultId: failure.id,
      testId: failure.test_id,
      hash,
      cause,
      platform: failure.platform,
      branch: failure.branch,
      site: failure.nora_site,
      seenAt: failure.seen_at,
    };
  });
  return { run: found.run, failures };
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
