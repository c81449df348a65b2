import type { BackendResultDetail, FrontendResultDetail } from "@assay/core";
import type { Db } from "../../db/pool.js";
import { notFound } from "../../errors.js";
import {
  toApiRequest,
  toBackendResult,
  isImage,
  toFrontendResult,
  toResultAttachment,
  toScreenshot,
  toStep,
} from "./runs.mappers.js";
import * as repo from "./results.repo.js";
import type { RunRow } from "./runs.repo.js";
import { requireRun, unstableTestIds, type RunsContext } from "./runs.service.js";

async function requireResult(db: Db, run: RunRow, testRunTestId: string) {
  const result = await repo.findResult(db, run.id, testRunTestId);
  if (!result) throw notFound(`No test ${testRunTestId} in test run ${run.test_run_key}.`);
  return result;
}

/**
 * One frontend result with everything the detail and print views show: steps, before steps,
 * screenshots (with the step each follows), its other attachments, script and logs. The error
 * screenshot is the last screenshot of a failed result.
 */
export async function getFrontendResult(
  ctx: RunsContext,
  key: string,
  testRunTestId: string,
): Promise<FrontendResultDetail> {
  const run = await requireRun(ctx.db, "frontend", key);
  const row = await requireResult(ctx.db, run, testRunTestId);
  const [attachmentRows, unstableIds, attemptRows] = await Promise.all([
    repo.listAttachments(ctx.db, row.id),
    unstableTestIds(ctx.db),
    repo.listFrontendResults(ctx.db, run.id, row.test_id),
  ]);
  const screenshots = attachmentRows.filter(isImage).map(toScreenshot);
  const last = screenshots.at(-1)?.screenshotpath ?? null;
  const rules = { unstableTestIds: unstableIds, ticketPattern: ctx.ticketPattern };
  return {
    ...toFrontendResult(row, key, rules, last),
    description: row.description,
    body: row.body,
    console_errors: row.console_errors,
    request_errors: row.request_errors,
    root_path: row.root_path,
    json_steps: row.json_steps.map(toStep),
    json_before_steps: row.json_before_steps.map(toStep),
    screenshots,
    attachments: attachmentRows.filter((a) => !isImage(a)).map(toResultAttachment),
    error_screenshot: row.status === "failed" ? last : null,
    defect: (await ctx.defectOf?.(Number(row.id), run.id)) ?? null,
    attempts: attemptRows.map((attempt) =>
      toFrontendResult(attempt, key, rules, attempt.screenshot),
    ),
  };
}

/** One backend result with the API requests it made, in order. */
export async function getBackendResult(
  ctx: RunsContext,
  key: string,
  testRunTestId: string,
): Promise<BackendResultDetail> {
  const run = await requireRun(ctx.db, "backend", key);
  const row = await requireResult(ctx.db, run, testRunTestId);
  const [requests, attemptRows] = await Promise.all([
    repo.listResultApiRequests(ctx.db, row.id),
    repo.listBackendResults(ctx.db, run.id, row.test_id),
  ]);
  return {
    ...toBackendResult(row, key, ctx.ticketPattern),
    apiRequests: requests.map(toApiRequest),
    defect: (await ctx.defectOf?.(Number(row.id), run.id)) ?? null,
    attempts: attemptRows.map((attempt) => toBackendResult(attempt, key, ctx.ticketPattern)),
  };
}
