import { createHash, randomBytes } from "node:crypto";
import type { IngestResponse, ReportFormat, RunMetadata, UploadFields } from "@assay/core";
import type pg from "pg";
import type { LimitFunction } from "p-limit";
import { withTransaction, type Db } from "../../db/pool.js";
import { AppError } from "../../errors.js";
import { finalizeRun } from "./finalize.repo.js";
import * as repo from "./ingest.repo.js";
import { classifyUpload, type UploadPlan } from "./parsers/index.js";
import { reportErrorToAppError } from "./parsers/types.js";
import type { ParseWorkers } from "./worker/parse-workers.js";
import { ResultsWriter, type AttachmentSink, type WrittenRun } from "./pipeline/results-writer.js";
import { storeOne } from "./pipeline/attachment-sink.js";
import type { Spool } from "./worker/spool.js";
import type { KnownTests, TestIdCache } from "./test-ids/test-id-cache.js";

/** The tests an upload may have registered: how many, and the first of their ids. */
export interface RegisteredTests {
  count: number;
  ids: readonly number[];
}

export interface IngestDeps {
  db: Db;
  attachments: AttachmentSink;
  /** Regular expression source; its first group is a test's stable id. */
  testIdPattern: string;
  /** Catalogue entries already committed: known tests need no lookup. */
  knownTests: KnownTests;
  /** Where uploaded reports are parsed. */
  parseWorkers: ParseWorkers;
  /**
   * Upload transactions open at once (p-limit): two per parse thread, one parsing and one
   * finishing (its last COPY, the run's totals, COMMIT). An upload waits here, not inside its
   * transaction: one waiting there for a parse thread held a pooled connection, and eight uploads
   * at once left the readers two connections of ten (docs/performance.md, "Load").
   */
  uploadSlots: LimitFunction;
  /**
   * Called in the transaction that stored a run's results, after its counts: another module's
   * reading of the new results (triage's mark, aliases, flaky), committed with them or not at
   * all. `registered`: the tests this transaction may have added to the catalogue (count 0:
   * none), with the first NEW_TEST_IDS_KEPT of their ids. `written`: the run's outcomes, when
   * this transaction wrote all of it (ResultsWriter.written).
   * Answers what to start once the transaction has committed, if anything (triage's work on the
   * run: off the upload's answer, docs/triage.md "When").
   */
  onRunStored?: (
    client: pg.PoolClient,
    runId: number,
    registered: RegisteredTests,
    written?: WrittenRun,
  ) => Promise<AfterCommit | void>;
  /**
   * A run that ended (an upload stored, a live run finished): `stored` runs inside the run's
   * transaction (notify queues its deliveries there, so a committed run is a queued one),
   * `committed` after COMMIT. Absent: nobody is told. `how`: an upload may be one shard of
   * several (more may follow into the same run); a finish is the run's explicit end.
   */
  runEnded?: RunEndedHook;
  /** ASSAY_PUBLIC_URL: the answer's `link` to the run is absolute on it. */
  publicUrl?: string;
}

export interface RunEndedHook {
  stored(client: pg.PoolClient, runId: number, how: "upload" | "finish"): Promise<void>;
  /** `run`: the run just stored (absent when an upload only got an earlier answer again). */
  committed(run?: { family: string; key: string }): Promise<void>;
}

/** A new run's key: its family and creation time, plus randomness so two at once differ. */
export function newRunKey(family: string, now = new Date()): string {
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");
  return `${family}-${stamp}-${randomBytes(3).toString("hex")}`;
}

/** Spec: test_run_name is timestamp-formatted. */
export function defaultRunName(now = new Date()): string {
  return now
    .toISOString()
    .replace("T", " ")
    .replace(/\.\d+Z$/, " UTC");
}

export function runUrl(family: RunMetadata["family"], key: string): string {
  const path = `/test_runs/${encodeURIComponent(key)}`;
  if (family === "backend") return `${path}?be=1`;
  return family === "load" ? `/test_runs?tab=load&run=${encodeURIComponent(key)}` : path;
}

function fingerprintOf(fields: UploadFields, spool: Spool): string {
  const hash = createHash("sha256").update(JSON.stringify(fields));
  for (const file of spool.all()) hash.update(`\u0000${file.name}\u0000${file.sha256}`);
  return hash.digest("hex");
}

export interface IngestOutcome {
  statusCode: number;
  body: IngestResponse;
}

/** Work onRunStored hands back, started once the run's transaction has committed. */
export type AfterCommit = () => void;

/**
 * An outcome, the catalogue entries its writer resolved (for KnownTests after COMMIT) and what
 * onRunStored asked to start after it.
 */
interface StoredUpload {
  outcome: IngestOutcome;
  learnedTests?: TestIdCache;
  afterCommit?: AfterCommit | void;
}

/**
 * Stores one upload in one transaction: the run (new, or the one named by run_key), every result
 * of every report file, attachments and statistics. The answer is sent only after COMMIT, so an
 * acknowledged upload survives a crash and a failed one leaves nothing behind.
 */
export async function ingestUpload(
  deps: IngestDeps,
  fields: UploadFields,
  spool: Spool,
  idempotencyKey: repo.IdempotencyKey | undefined,
): Promise<IngestOutcome> {
  const plan = await classifyUpload(spool, fields.format).catch((e: unknown) => {
    throw reportErrorToAppError(e);
  });
  const family = plan.formats.includes("locust") ? "load" : fields.family;
  if (plan.formats.includes("locust") && plan.formats.length > 1) {
    throw new AppError(
      400,
      "mixed_families",
      "Upload a Locust load report on its own, not with test results.",
    );
  }
  if (family === "load" && !plan.formats.includes("locust")) {
    throw new AppError(
      400,
      "family_mismatch",
      "A load run takes a Locust report (stats CSV); these files are test results.",
    );
  }
  const fingerprint = fingerprintOf(fields, spool);
  // The upload's transaction: the Idempotency-Key's earlier answer, or the upload stored.
  const storeOnce = async (client: pg.PoolClient): Promise<StoredUpload> => {
    if (idempotencyKey) {
      if (!(await repo.tryLockIdempotencyKey(client, idempotencyKey))) {
        throw new AppError(
          409,
          "idempotency_in_progress",
          "An upload with this Idempotency-Key is still in progress; retry later.",
        );
      }
      const earlier = await repo.findIdempotentAnswer(client, idempotencyKey);
      if (earlier && earlier.fingerprint !== fingerprint) {
        throw new AppError(
          422,
          "idempotency_key_reused",
          "This Idempotency-Key was used for a different upload; use a new key.",
        );
      }
      if (earlier) {
        return {
          outcome: {
            statusCode: earlier.status_code,
            body: earlier.response as IngestResponse,
          },
        };
      }
    }
    const upload = await storeUpload(client, deps, { ...fields, family }, spool, plan);
    if (idempotencyKey) {
      await repo.saveIdempotentAnswer(
        client,
        idempotencyKey,
        fingerprint,
        upload.outcome.statusCode,
        upload.outcome.body,
      );
    }
    return upload;
  };
  const stored = await deps
    .uploadSlots(() => withTransaction(deps.db, storeOnce))
    .catch((error: unknown) => {
      throw reportErrorToAppError(error);
    });
  if (stored.learnedTests) deps.knownTests.remember(stored.learnedTests);
  await deps.runEnded?.committed({ family, key: stored.outcome.body.test_run_key });
  // After the run-ended hook, which starts warming the run's view: work after it yields to that.
  stored.afterCommit?.();
  return stored.outcome;
}

/** A Locust upload's statistics, and its HTML report in object storage. */
async function storeLoadReport(
  client: pg.PoolClient,
  deps: IngestDeps,
  runId: number,
  load: NonNullable<UploadPlan["load"]>,
  fields: UploadFields,
): Promise<void> {
  const report = await load();
  await repo.replaceLoadStats(client, runId, report.stats);
  await repo.setLoadTiming(client, runId, fields);
  if (report.htmlReport) {
    const stored = await storeOne(deps.attachments, report.htmlReport.open(), {
      contentType: "text/html",
      name: report.htmlReport.name,
    });
    await repo.setReportLocation(client, runId, `/v1/objects/${stored.key}`);
    await deps.attachments.settle(client, [stored.key]);
  }
}

async function storeUpload(
  client: pg.PoolClient,
  deps: IngestDeps,
  fields: UploadFields,
  spool: Spool,
  plan: UploadPlan,
): Promise<StoredUpload> {
  const now = new Date();
  const key = fields.run_key ?? newRunKey(fields.family, now);
  const run = await repo.openRunForUpdate(
    client,
    key,
    fields.test_run_name ?? defaultRunName(now),
    fields,
    "finished",
  );
  if (run.family !== fields.family) {
    throw new AppError(
      409,
      "family_mismatch",
      `Run ${key} is a ${run.family} run; this upload is ${fields.family}.`,
    );
  }
  const existing = await repo.existingTestRunTestIds(client, run.id);
  const writer = new ResultsWriter(client, {
    runId: run.id,
    runAt: run.run_at,
    family: fields.family,
    testIdPattern: new RegExp(deps.testIdPattern, "i"),
    attachments: deps.attachments,
    knownTests: deps.knownTests,
    existing,
  });
  let warnings: string[] = [];
  let afterCommit: AfterCommit | void = undefined;
  if (plan.load) {
    await storeLoadReport(client, deps, run.id, plan.load, fields);
  } else {
    const parsed = deps.parseWorkers.parse(spool, {
      runId: run.id,
      runAt: run.run_at,
      format: fields.format,
      family: fields.family,
      testIdPattern: deps.testIdPattern,
      runFacts: {
        nora_site: fields.nora_site,
        branch: fields.branch,
        commit_hash: fields.commit,
        executor: fields.executor,
        baseurl: fields.baseurl,
      },
      existing: [...existing],
      junitRetries: fields.junit_retries,
    });
    await writer.writeBatches(parsed.batches, (batch) => parsed.recycle(batch));
    writer.finish(parsed.summary());
    warnings = parsed.warnings();
    await repo.addRunWarnings(client, run.id, warnings);
    const finalized = await finalizeRun(client, run.id, {
      rank: writer.ranking(),
      tally: writer.tally,
    });
    afterCommit = await deps.onRunStored?.(
      client,
      run.id,
      writer.registeredTests,
      writer.written(finalized),
    );
  }
  const counts = await repo.runCounts(client, run.id);
  await deps.runEnded?.stored(client, run.id, "upload");
  const created = writer.summary.inserted > 0 || !fields.run_key;
  const outcome: IngestOutcome = {
    statusCode: created ? 201 : 200,
    body: {
      test_run_key: key,
      family: fields.family,
      formats: plan.formats as ReportFormat[],
      counts,
      inserted: writer.summary.inserted,
      duplicates: writer.summary.duplicates,
      attachments: writer.summary.attachments,
      missing_attachments: writer.summary.missingAttachments,
      warnings,
      url: runUrl(fields.family, key),
      ...(deps.publicUrl
        ? { link: new URL(runUrl(fields.family, key), deps.publicUrl).toString() }
        : {}),
    },
  };
  return { outcome, learnedTests: writer.learnedTests, afterCommit };
}
