import { ResultInputSchema, type ResultInput, type RunMetadata } from "@assay/core";
import { z } from "zod";
import { withTransaction } from "../../db/pool.js";
import { AppError } from "../../errors.js";
import { finalizeRun } from "./finalize.repo.js";
import * as repo from "./ingest.repo.js";
import {
  defaultRunName,
  newRunKey,
  runUrl,
  type AfterCommit,
  type IngestDeps,
} from "./ingest.service.js";
import { ResultsWriter } from "./pipeline/results-writer.js";
import { jsonPath, parseJsonText } from "./parsers/json.js";
import { ReportError, type UploadFiles } from "./parsers/types.js";

/** Live reporters attach files through their own route, not by reference. */
const NO_FILES: UploadFiles = { get: () => undefined, all: () => [] };

/** Opens a run that live reporters append to; it reads as "open" until finished. */
export async function openLiveRun(deps: IngestDeps, meta: RunMetadata, runKey: string | undefined) {
  const now = new Date();
  const key = runKey ?? newRunKey(meta.family, now);
  return withTransaction(deps.db, async (client) => {
    const run = await repo.openRunForUpdate(
      client,
      key,
      meta.test_run_name ?? defaultRunName(now),
      meta,
      "open",
    );
    if (run.family !== meta.family) {
      throw new AppError(
        409,
        "family_mismatch",
        `Run ${key} is a ${run.family} run, not ${meta.family}.`,
      );
    }
    return { test_run_key: key, state: run.state, url: runUrl(meta.family, key) };
  });
}

async function lockRun(client: Parameters<typeof repo.findRunForUpdate>[0], key: string) {
  const run = await repo.findRunForUpdate(client, key);
  if (!run)
    throw new AppError(
      404,
      "not_found",
      `No test run with key ${key}. Open it first with POST /v1/ingest/runs.`,
    );
  return run;
}

/**
 * Appends a batch of results to a run and commits, so they are readable at once. A result sent
 * again (same test_run_test_id) is left as it was.
 */
export async function appendResults(
  deps: IngestDeps,
  key: string,
  results: readonly ResultInput[],
) {
  const appended = await withTransaction(deps.db, async (client) => {
    const run = await lockRun(client, key);
    if (run.family === "load") {
      throw new AppError(
        400,
        "family_mismatch",
        `Run ${key} is a load run: upload its Locust report instead.`,
      );
    }
    const writer = new ResultsWriter(client, {
      runId: run.id,
      runAt: run.run_at,
      family: run.family,
      testIdPattern: new RegExp(deps.testIdPattern, "i"),
      attachments: deps.attachments,
      knownTests: deps.knownTests,
      existing: await repo.existingTestRunTestIds(client, run.id),
      runFacts: await repo.runFacts(client, run.id),
    });
    await writer.write(results.map((result) => ({ result, files: NO_FILES })));
    const finalized = await finalizeRun(client, run.id, {
      rank: writer.ranking(),
      tally: writer.tally,
    });
    const afterCommit = await deps.onRunStored?.(
      client,
      run.id,
      writer.registeredTests,
      writer.written(finalized),
    );
    const answer = {
      test_run_key: key,
      inserted: writer.summary.inserted,
      duplicates: writer.summary.duplicates,
      counts: await repo.runCounts(client, run.id),
    };
    return { answer, learnedTests: writer.learnedTests, afterCommit };
  });
  deps.knownTests.remember(appended.learnedTests);
  appended.afterCommit?.();
  return appended.answer;
}

/** The most results one append takes. */
export const MAX_BATCH_RESULTS = 50_000;
const BatchSchema = z.array(ResultInputSchema).max(MAX_BATCH_RESULTS);

/**
 * The results of an append's body: a JSON array (parsed safely by the route, see
 * parseJsonBody) or NDJSON text, one result per line (blank lines allowed). A bad result is a 400
 * naming where it is ("$[1].status", "Line 2, $.status") and what is wrong.
 */
export function batchOf(body: unknown, ndjson: boolean): ResultInput[] {
  if (!ndjson || typeof body !== "string") return validated(body, BatchSchema, "");
  const results: ResultInput[] = [];
  body.split("\n").forEach((line, index) => {
    if (line.trim() === "") return;
    const where = `Line ${index + 1}`;
    if (results.length === MAX_BATCH_RESULTS) {
      throw new AppError(
        400,
        "invalid_result",
        `${where}: one batch holds at most ${MAX_BATCH_RESULTS} results; send the rest in another.`,
      );
    }
    let value: unknown;
    try {
      value = parseJsonText(where, line);
    } catch (error) {
      if (!(error instanceof ReportError)) throw error;
      const column = error.location.column;
      const at = column === undefined ? "" : `, column ${column}`;
      throw new AppError(400, "invalid_ndjson", `${where}${at}: ${error.reason}`);
    }
    results.push(validated(value, ResultInputSchema, `${where}, `));
  });
  return results;
}

function validated<T>(value: unknown, schema: z.ZodType<T>, where: string): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw new AppError(
    400,
    "invalid_result",
    `${where}${jsonPath(issue.path as (string | number)[])}: ${issue.message}`,
  );
}

/**
 * A JSON request body of the live API, parsed as uploaded JSON files are (parseJsonText):
 * `__proto__` and `constructor.prototype` keys refused, nesting bounded, the position of a
 * syntax error named. A Fastify content-type parser.
 */
export function parseJsonBody(text: string): unknown {
  try {
    return parseJsonText("The request body", text);
  } catch (error) {
    throw error instanceof ReportError ? new AppError(400, "invalid_json", error.message) : error;
  }
}

/** Marks the run finished; its counts stay as the last batch left them. */
export async function finishLiveRun(deps: IngestDeps, key: string) {
  const finished = await withTransaction(deps.db, async (client) => {
    const run = await lockRun(client, key);
    await repo.setRunState(client, run.id, "finished");
    let afterCommit: AfterCommit | void = undefined;
    if (run.family !== "load") {
      await finalizeRun(client, run.id);
      // Its tests were registered by the appends before, each seen then.
      afterCommit = await deps.onRunStored?.(client, run.id, { count: 0, ids: [] });
    }
    await deps.runEnded?.stored(client, run.id, "finish");
    return {
      family: run.family,
      afterCommit,
      answer: {
        test_run_key: key,
        state: "finished" as const,
        counts: await repo.runCounts(client, run.id),
      },
    };
  });
  await deps.runEnded?.committed({ family: finished.family, key });
  finished.afterCommit?.();
  return finished.answer;
}
