import type { Readable } from "node:stream";
import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import type { Db } from "../db/pool.js";
import { multipartBody } from "../http/multipart-body.js";
import { markDemoLoaded, markDemoStarted } from "../modules/instance/instance.service.js";
import { addTagToTest } from "../modules/tags/tags.service.js";
import { createToken, revokeToken } from "../modules/tokens/tokens.service.js";
import {
  buildPlan,
  FULL_DEMO,
  type DemoPlan,
  type DemoPlanOptions,
  withExecutorNames,
} from "./demo-plan.js";
import type { PlannedRun } from "./demo-run-types.js";
import { uploadOf, type DemoUpload } from "./demo-reports.js";
import { recordDemoOqBuilds } from "./demo-oq-builds.js";
import { renamedTestRuns } from "./demo-aliases.js";
import { demoRequirements } from "./demo-requirements.js";
import { demoTagging } from "./demo-tags.js";
import { demoTriage } from "./demo-triage.js";
import { FLAKY_DEFAULTS, type FlakySettings } from "../config-flaky.js";
import { recount } from "../modules/flaky/stats.service.js";
import { upkeepPartitions } from "../modules/storage/storage.jobs.js";
import * as repo from "./demo.repo.js";

/*
 * Loads the demo through the real ingestion path: every planned run becomes the report files
 * (or live-API calls) a CI job would send, posted with app.inject and a service token made for
 * the load and revoked after it. Nothing is written into result tables directly.
 */

export interface LoadDemoOptions {
  /** The app whose ingest routes receive the reports. */
  app: FastifyInstance;
  db: Db;
  log: FastifyBaseLogger;
  /** Size of the demo; default FULL_DEMO ending today. */
  plan?: Partial<DemoPlanOptions>;
  /** Stops the load between two runs (the server is shutting down). */
  signal?: AbortSignal;
  /** Executor names of the daily robot and its rerun (catalog.dailyRuns), so the Dashboard charts the demo. */
  executors?: { daily: string; rerun: string };
  /** ASSAY_TRIAGE_SIMILARITY, for the analysis of the demo's newest runs (default 0.6). */
  triageSimilarity?: number;
  /** Flaky tests' window, threshold and decay (default: config-flaky.ts's defaults). */
  flaky?: FlakySettings;
  /** Settings shown before the runs are in (notification rules, schedules): called first. */
  atStart?: () => Promise<void>;
}

export type DemoLoadOutcome =
  | { loaded: false; reason: "store_not_empty" }
  | ({ loaded: true; seconds: number } & repo.StoredCounts);

// A live reporter sends results in batches; this keeps each request body a few MB.
const LIVE_BATCH = 500;
const PROGRESS_STEPS = 10;
// Enough to keep PostgreSQL and the disk busy while this process parses the next report.
const CONCURRENT_UPLOADS = 4;

class Poster {
  constructor(
    private readonly app: FastifyInstance,
    private readonly token: string,
  ) {}

  async send(upload: DemoUpload): Promise<void> {
    if (upload.kind === "files") {
      // Encoded as `assay upload` encodes a folder: the same multipart body.
      const body = multipartBody(
        upload.fields,
        upload.files.map(({ name, content }) => ({ name, content: Buffer.from(content) })),
      );
      await this.post("/v1/ingest/reports", body.open(), body.contentType);
      return;
    }
    const key = encodeURIComponent(upload.open.run_key);
    await this.post("/v1/ingest/runs", JSON.stringify(upload.open));
    for (let at = 0; at < upload.results.length; at += LIVE_BATCH) {
      const batch = upload.results.slice(at, at + LIVE_BATCH);
      await this.post(`/v1/ingest/runs/${key}/results`, JSON.stringify(batch));
    }
    await this.post(`/v1/ingest/runs/${key}/finish`, "{}");
  }

  /** Imports requirements as `assay rms import` does (POST /v1/traceability/rms/import). */
  async importRequirements(fileName: string, rows: unknown[]): Promise<void> {
    const content = JSON.stringify(rows, null, 2);
    await this.post("/v1/traceability/rms/import", JSON.stringify({ fileName, content }));
  }

  private async post(url: string, payload: string | Readable, contentType = "application/json") {
    const response = await this.app.inject({
      method: "POST",
      url,
      headers: { authorization: `Bearer ${this.token}`, "content-type": contentType },
      payload,
    });
    if (response.statusCode >= 300) {
      throw new Error(
        `POST ${url} answered ${response.statusCode}: ${response.body.slice(0, 500)}`,
      );
    }
  }
}

function timesOf(run: PlannedRun): repo.RunTimes {
  return run.family === "load"
    ? { key: run.key, createdAt: run.start, startedAt: run.start, finishedAt: run.end }
    : { key: run.key, createdAt: run.start };
}

/**
 * Posts the runs, oldest first. Each upload waits on commits and file syncs, so a few go at
 * once; but only after every test has been registered by an earlier upload, because two
 * transactions inserting the same new `tests` rows in different orders can deadlock.
 */
async function postAll(options: LoadDemoOptions, plan: DemoPlan, token: string) {
  const poster = new Poster(options.app, token);
  const registered = new Set<number>();
  const dated: repo.RunTimes[] = [];
  let next = 0;
  let done = 0;
  let reported = 0;
  const total = plan.runs.length;
  const postOne = async (run: PlannedRun) => {
    await poster.send(uploadOf(run));
    for (const result of run.results) registered.add(result.test.id);
    dated.push(timesOf(run));
    done++;
    if (dated.length >= 50) await repo.setRunTimes(options.db, dated.splice(0));
    const step = Math.floor((done * PROGRESS_STEPS) / total);
    if (step > reported && done < total) {
      reported = step;
      options.log.info({ runs: done, of: total }, "loading demo data");
    }
  };
  let failure: unknown;
  // Workers never reject: each stops at the first failure (or abort) and the others finish the
  // upload they are in, so nothing is still posting when the caller closes the database.
  const worker = async () => {
    while (next < total && failure === undefined) {
      if (options.signal?.aborted) failure = options.signal.reason;
      else await postOne(plan.runs[next++]!).catch((error: unknown) => (failure ??= error));
    }
  };
  const flush = () => repo.setRunTimes(options.db, dated.splice(0));
  try {
    while (next < total && registered.size < plan.tests.length) {
      options.signal?.throwIfAborted();
      await postOne(plan.runs[next++]!);
    }
    await Promise.all(Array.from({ length: CONCURRENT_UPLOADS }, worker));
    if (failure !== undefined) throw failure;
  } catch (error) {
    // The runs loaded before a failure or a shutdown stay, on their own days too.
    await flush().catch(() => undefined);
    throw error;
  }
  await flush();
}

/**
 * Loads the demo into an empty store: marks the data as demo data, posts every planned run
 * (oldest first), dates the runs, and tags tests as a team would ('@unstable' and a few
 * working lists: demo-tags.ts). A store that already has runs is left alone.
 */
export async function loadDemo(options: LoadDemoOptions): Promise<DemoLoadOutcome> {
  const { db, log } = options;
  if (await repo.hasRuns(db)) return { loaded: false, reason: "store_not_empty" };
  const started = performance.now();
  const planned = buildPlan({ ...FULL_DEMO, now: new Date(), ...options.plan });
  const plan = options.executors ? withExecutorNames(planned, options.executors) : planned;
  log.info(
    { runs: plan.runs.length, tests: plan.tests.length },
    "loading demo data (ASSAY_DEMO=0 turns this off)",
  );
  await markDemoStarted(db);
  // The runs are dated back once posted (demo.repo.ts setRunTimes), their results with them:
  // their months' partitions made first, so no row waits in the default partition to be moved.
  const now = new Date();
  const oldest = plan.runs.reduce((first, run) => (run.start < first ? run.start : first), now);
  await upkeepPartitions(db, now, oldest);
  await options.atStart?.();
  const name = `demo-loader-${Date.now()}`;
  const { token } = await createToken(db.kysely, name, ["ingest"]);
  try {
    await postAll(options, plan, token);
    const poster = new Poster(options.app, token);
    await poster.importRequirements("demo-requirements.json", demoRequirements());
    // A job whose tests were renamed last night: one aliased at upload, one suggested.
    const renamed = renamedTestRuns(options.plan?.now ?? new Date());
    for (const upload of renamed.uploads) await poster.send(upload);
    await repo.setRunTimes(db, renamed.times);
  } finally {
    await revokeToken(db.kysely, name);
  }
  await repo.compactMonth(db, now);
  // As a user tags them on the Test Reports screen (POST /v1/dtag), through the same rules.
  for (const tag of demoTagging(plan.tests)) {
    for (const test of tag.tests) {
      await addTagToTest(db, { name: tag.name, testId: test.id, testName: test.scenario });
    }
  }
  // Triage's groups from the dated runs, and a QA lead's decisions on the frequent causes.
  await demoTriage(db, { similarity: options.triageSimilarity ?? 0.6 });
  // Flaky tests' windows and daily trend counted again from the dated runs.
  await recount(db, options.flaky ?? FLAKY_DEFAULTS);
  // The Nora Releases report's OQ runs: builds that ran some of the runs just loaded.
  await recordDemoOqBuilds(db, plan.runs);
  await markDemoLoaded(db);
  const counts = await repo.storedCounts(db);
  const seconds = Math.round((performance.now() - started) / 100) / 10;
  log.info({ ...counts, seconds }, "demo data loaded");
  return { loaded: true, seconds, ...counts };
}
