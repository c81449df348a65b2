import type { FastifyBaseLogger } from "fastify";
import type pg from "pg";
import type { Db } from "../../db/pool.js";
import {
  doMarked,
  markPending,
  untilAllDone,
  untilDone,
  type PendingStep,
} from "../pending/pending.service.js";
import { recordRunFailures, type TriageSettings } from "./fingerprints.service.js";

/*
 * Triage after the upload's commit (issue 34, docs/triage.md "When"). Fingerprinting and filing
 * a 100k-test run's failures during the upload, in its parse workers and its transaction, kept
 * its answer waiting (8-30% of a known-tests upload on 2 cores: docs/performance.md). Now the
 * upload only marks its run, and the server that stored it triages the run right after the
 * answer, reading its failures back (modules/pending). Whatever needs a run's groups (the gate,
 * the dialogs' groups, a notification, the HTML report) first waits for that run's triage, doing
 * it itself when nobody is (untilTriaged); a run whose server died before triaging it is found
 * by the sweep.
 */

/** What triaging a run needs. */
export interface TriageDeps {
  db: Db;
  settings: TriageSettings;
  log?: FastifyBaseLogger;
}

/** Triage as a run's step after its commit. */
export function triageStep(deps: TriageDeps): PendingStep {
  return {
    kind: "triage",
    db: deps.db,
    log: deps.log,
    work: (client, runId) => recordRunFailures(client, runId, deps.settings),
  };
}

/** In the upload's transaction: the run waits for triage. Answers the upload's mark. */
export function markForTriage(client: pg.ClientBase, runId: number): Promise<number> {
  return markPending(client, "triage", runId);
}

/**
 * Triages a marked run in one transaction that holds its mark (a peer at it is waited for, or
 * left to it with `skipLocked`), then clears the mark it triaged. Answers whether it triaged.
 */
export function triageMarked(deps: TriageDeps, runId: number, skipLocked = false) {
  return doMarked(triageStep(deps), runId, { skipLocked });
}

/** Before reading a run's groups: its triage done, by this read if nobody is at it. */
export function untilTriaged(deps: TriageDeps, runId: number): Promise<void> {
  return untilDone(triageStep(deps), runId);
}

/**
 * Before reading groups across runs (the Failures screen, a group's page): every marked run
 * triaged, so an acknowledged upload's failures are in them. Usually nothing is marked.
 */
export function untilAllTriaged(deps: TriageDeps): Promise<void> {
  return untilAllDone(triageStep(deps));
}
