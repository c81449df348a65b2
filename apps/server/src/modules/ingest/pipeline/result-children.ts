import type { Readable } from "node:stream";
import type { AttachmentInput, ResultInput } from "@assay/core";
import type pg from "pg";
import { copyRows, type CopyValue } from "../encoding/copy.js";
import { findFile, type UploadFiles } from "../parsers/types.js";
import type { AttachmentSink } from "./attachment-sink.js";

export type { AttachmentSink };

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

/** An attachment whose bytes were found: stored, then its row written. */
interface Found {
  resultId: number;
  result: ResultInput;
  attachment: AttachmentInput;
  contentType: string;
  open: () => Readable | Buffer;
}

/**
 * Stores the attachments of a batch of results in object storage and COPYs their rows and the
 * results' API requests. The batch's keys are recorded as pending in one statement before the
 * first object is written, and settled with the rows. Returns how many attachments were stored
 * and the references that matched no uploaded file.
 */
export async function writeResultChildren(
  client: pg.PoolClient,
  runId: number,
  sink: AttachmentSink,
  results: readonly StoredResult[],
): Promise<{ attachments: number; missing: string[] }> {
  const found: Found[] = [];
  const requestRows: CopyValue[][] = [];
  const missing: string[] = [];
  for (const { id, result, files } of results) {
    for (const attachment of result.attachments ?? []) {
      const open = opener(attachment, files);
      if (!open) {
        missing.push(attachment.path ?? attachment.name);
        continue;
      }
      const contentType = attachment.content_type ?? "application/octet-stream";
      found.push({ resultId: id, result, attachment, contentType, open });
    }
    for (const r of result.api_requests ?? []) {
      requestRows.push([runId, id, r.method, r.url, r.status, r.response_time_ms]);
    }
  }
  const keys = await sink.reserve(
    found.map((f) => ({ contentType: f.contentType, name: f.attachment.name })),
  );
  const attachmentRows: CopyValue[][] = [];
  for (const [i, f] of found.entries()) {
    const key = keys[i]!;
    const { size } = await sink.put(key, f.open(), f.contentType);
    attachmentRows.push([
      f.resultId,
      f.attachment.name,
      f.contentType,
      f.attachment.description,
      mainStepIndex(f.result, f.attachment.step_index),
      f.attachment.timestamp,
      key,
      size,
    ]);
  }
  await copyRows(client, "attachments", ATTACHMENT_COLUMNS, attachmentRows);
  await sink.settle(client, keys);
  await copyRows(client, "api_requests", API_REQUEST_COLUMNS, requestRows);
  return { attachments: attachmentRows.length, missing };
}

/** How to read an attachment's bytes: inline, or an uploaded file it names; none if missing. */
function opener(
  attachment: AttachmentInput,
  files: UploadFiles,
): (() => Readable | Buffer) | undefined {
  const inline = attachment.body_base64;
  if (inline !== undefined) return () => Buffer.from(inline, "base64");
  if (attachment.path === undefined) return undefined;
  const file = findFile(files, attachment.path);
  return file && (() => file.open());
}

/** step_index counts all steps; stored, it points into json_steps (the main steps). */
function mainStepIndex(result: ResultInput, index: number | undefined): number | null {
  if (index === undefined) return null;
  const steps = result.steps ?? [];
  if (steps[index]?.before) return null;
  return steps.slice(0, index).filter((s) => !s.before).length;
}
