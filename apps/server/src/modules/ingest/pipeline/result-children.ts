import type { Readable } from "node:stream";
import type { AttachmentInput, ResultInput } from "@assay/core";
import type pg from "pg";
import { copyRows, type CopyValue } from "../encoding/copy.js";
import { findFile, type UploadFiles } from "../parsers/types.js";

/** Where attachment bytes go (object storage); returns the key the row refers to. */
export interface AttachmentSink {
  store(
    body: Readable | Buffer,
    contentType: string,
    name: string,
  ): Promise<{ key: string; size: number }>;
}

const ATTACHMENT_COLUMNS = [
  "result_id",
  "name",
  "content_type",
  "description",
  "step_index",
  "taken_at",
  "object_key",
  "size",
];
const API_REQUEST_COLUMNS = ["run_id", "result_id", "method", "url", "status", "response_time_ms"];

export interface StoredResult {
  id: number;
  result: ResultInput;
  files: UploadFiles;
}

/**
 * Stores the attachments of a batch of results in object storage and COPYs their rows and the
 * results' API requests. Returns how many attachments were stored and the references that
 * matched no uploaded file.
 */
export async function writeResultChildren(
  client: pg.PoolClient,
  runId: number,
  sink: AttachmentSink,
  results: readonly StoredResult[],
): Promise<{ attachments: number; missing: string[] }> {
  const attachmentRows: CopyValue[][] = [];
  const requestRows: CopyValue[][] = [];
  const missing: string[] = [];
  for (const { id, result, files } of results) {
    for (const attachment of result.attachments ?? []) {
      const row = await storeAttachment(sink, result, attachment, id, files);
      if (row) attachmentRows.push(row);
      else missing.push(attachment.path ?? attachment.name);
    }
    for (const r of result.api_requests ?? []) {
      requestRows.push([runId, id, r.method, r.url, r.status, r.response_time_ms]);
    }
  }
  await copyRows(client, "attachments", ATTACHMENT_COLUMNS, attachmentRows);
  await copyRows(client, "api_requests", API_REQUEST_COLUMNS, requestRows);
  return { attachments: attachmentRows.length, missing };
}

async function storeAttachment(
  sink: AttachmentSink,
  result: ResultInput,
  attachment: AttachmentInput,
  resultId: number,
  files: UploadFiles,
): Promise<CopyValue[] | undefined> {
  const contentType = attachment.content_type ?? "application/octet-stream";
  let body: Readable | Buffer | undefined;
  if (attachment.body_base64 !== undefined) body = Buffer.from(attachment.body_base64, "base64");
  else if (attachment.path !== undefined) body = findFile(files, attachment.path)?.open();
  if (!body) return undefined;
  const stored = await sink.store(body, contentType, attachment.name);
  return [
    resultId,
    attachment.name,
    contentType,
    attachment.description,
    mainStepIndex(result, attachment.step_index),
    attachment.timestamp,
    stored.key,
    stored.size,
  ];
}

/** step_index counts all steps; stored, it points into json_steps (the main steps). */
function mainStepIndex(result: ResultInput, index: number | undefined): number | null {
  if (index === undefined) return null;
  const steps = result.steps ?? [];
  if (steps[index]?.before) return null;
  return steps.slice(0, index).filter((s) => !s.before).length;
}
