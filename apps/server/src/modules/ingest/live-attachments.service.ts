import { createHash } from "node:crypto";
import { pipeline, Transform, type Readable } from "node:stream";
import type { AttachmentCreatedSchema } from "@assay/core";
import type { z } from "zod";
import { withTransaction } from "../../db/pool.js";
import { AppError } from "../../errors.js";
import * as repo from "./ingest.repo.js";
import type { IngestDeps } from "./ingest.service.js";
import * as liveRepo from "./live.repo.js";
import { storeOne } from "./pipeline/attachment-sink.js";

export interface AttachmentFields {
  description?: string;
  step_index?: number;
  timestamp?: string;
}

/** The file part of the request, read as it streams in. */
export interface LiveFile {
  body: Readable;
  contentType: string;
  name: string;
}

/** The answer to an attachment: always 201, also when replayed for a retry. */
export type AttachmentCreated = z.infer<typeof AttachmentCreatedSchema>;

interface AttachRequest {
  key: string;
  testRunTestId: string;
  file: LiveFile;
  fields: AttachmentFields;
}

/** What makes two requests with one Idempotency-Key the same request: target, fields, bytes. */
function fingerprintOf(request: AttachRequest, bytesSha256: string): string {
  const { key, testRunTestId, file, fields } = request;
  const what = ["attachment", key, testRunTestId, file.name, file.contentType, fields];
  return createHash("sha256").update(JSON.stringify(what)).update(bytesSha256).digest("hex");
}

/** The body as it passes, hashed (SHA-256). An error on either side ends both. */
function hashing(body: Readable): { stream: Readable; digest: () => string } {
  const hash = createHash("sha256");
  const through = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      done(null, chunk);
    },
  });
  // The store reports the failure; pipeline only makes sure neither stream is left open.
  const stream = pipeline(body, through, () => undefined);
  return { stream, digest: () => hash.digest("hex") };
}

/** SHA-256 of a body read to its end and not kept (a retry whose answer is already stored). */
async function digestOf(body: Readable): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of body) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/** An answer stored under an Idempotency-Key. */
interface StoredAnswer {
  fingerprint: string;
  response: unknown;
}

/** What the row's transaction did: wrote the row, or found a retry's first answer. */
type Committed = { earlier: StoredAnswer } | { created: AttachmentCreated };

function replay(earlier: StoredAnswer, fingerprint: string): AttachmentCreated {
  if (earlier.fingerprint !== fingerprint) {
    throw new AppError(
      422,
      "idempotency_key_reused",
      "This Idempotency-Key was used for a different request; use a new key.",
    );
  }
  return earlier.response as AttachmentCreated;
}

/**
 * Stores a file for one result of a run (a screenshot after a step, say). With an
 * Idempotency-Key, a retry of the same request (same client, key, target, fields and bytes)
 * within 24 hours gets the first answer and stores nothing more. The key is checked before the
 * file is stored and again, locked, in the transaction that writes the row, so a retry sent
 * while the first was still streaming also ends with one object and one row: the later of the
 * two deletes its own object and answers as the first did.
 */
export async function attachToResult(
  deps: IngestDeps,
  key: string,
  testRunTestId: string,
  file: LiveFile,
  fields: AttachmentFields,
  idempotencyKey?: repo.IdempotencyKey,
): Promise<AttachmentCreated> {
  // Look the result up first, so a wrong id stores no orphan object.
  const found = await liveRepo.findResult(deps.db.pool, key, testRunTestId);
  if (!found) {
    file.body.resume();
    throw new AppError(404, "not_found", `No result ${testRunTestId} in run ${key}.`);
  }
  const request = { key, testRunTestId, file, fields };
  if (idempotencyKey) {
    const earlier = await repo.findIdempotentAnswer(deps.db.pool, idempotencyKey);
    if (earlier) return replay(earlier, fingerprintOf(request, await digestOf(file.body)));
  }
  const hashed = hashing(file.body);
  const stored = await storeOne(deps.attachments, hashed.stream, file);
  const fingerprint = fingerprintOf(request, hashed.digest());
  // A failure from here on leaves the object pending: whether the COMMIT happened may be
  // unknown, so only the orphan sweep, which checks for a row, deletes it.
  const outcome = await withTransaction<Committed>(deps.db, async (client) => {
    if (idempotencyKey) {
      await repo.lockIdempotencyKey(client, idempotencyKey);
      const earlier = await repo.findIdempotentAnswer(client, idempotencyKey);
      if (earlier) return { earlier };
    }
    const id = await liveRepo.insertAttachment(client, {
      resultId: found.id,
      name: file.name,
      contentType: file.contentType,
      description: fields.description ?? null,
      stepIndex: fields.step_index ?? null,
      takenAt: fields.timestamp ?? null,
      objectKey: stored.key,
      size: stored.size,
    });
    await deps.attachments.settle(client, [stored.key]);
    await liveRepo.touchRun(client, found.run_id);
    const body = { id, object_key: stored.key, size: stored.size, content_type: file.contentType };
    if (idempotencyKey) {
      await repo.saveIdempotentAnswer(client, idempotencyKey, fingerprint, 201, body);
    }
    return { created: body };
  });
  if ("earlier" in outcome) {
    // Nothing names this copy: the request answered first keeps its own.
    await deps.attachments.discard([stored.key]).catch(() => undefined);
    return replay(outcome.earlier, fingerprint);
  }
  return outcome.created;
}
