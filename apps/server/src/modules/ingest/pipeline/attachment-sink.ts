import path from "node:path";
import type { Readable } from "node:stream";
import type pg from "pg";
import { AppError } from "../../../errors.js";
import { newObjectKey, safeContentType, type ObjectStore } from "../../../storage/object-store.js";
import { forgetPending, recordPending, settlePending } from "./pending-objects.repo.js";

/** A file about to be stored: what its key's extension is chosen from. */
export interface AttachmentFile {
  contentType: string;
  name: string;
}

/**
 * Where attachment bytes go (object storage). Objects are written before the rows that name
 * them commit, so each key is first recorded as pending (reserve), and the transaction that
 * commits the rows settles it; a key never settled is an orphan, which the sweep removes
 * (orphan-sweep.ts).
 */
export interface AttachmentSink {
  /** New keys for these files, recorded as pending and committed before any byte is written. */
  reserve(files: readonly AttachmentFile[]): Promise<string[]>;
  /** Stores the bytes under a reserved key. */
  put(key: string, body: Readable | Buffer, contentType: string): Promise<{ size: number }>;
  /**
   * In the transaction that commits the rows naming `keys`: they are no longer pending. Fails
   * (and so rolls the upload back) if the sweep took one as an orphan meanwhile.
   */
  settle(client: pg.PoolClient, keys: readonly string[]): Promise<void>;
  /** Deletes stored objects no row will name (a retried request answered before), and their records. */
  discard(keys: readonly string[]): Promise<void>;
}

const EXTENSIONS: Record<string, string> = {
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/gif": "gif",
  "image/webp": "webp",
  "text/html": "html",
  "text/plain": "txt",
  "application/json": "json",
  "video/webm": "webm",
};

/**
 * Attachments go to object storage under server-made keys. `pending` is a pool of its own for
 * the pending records: an upload holds one connection of the main pool for its transaction while
 * it stores attachments, and uploads waiting on the main pool for a second connection could
 * otherwise hold every connection between them.
 */
export function objectStoreSink(
  objects: ObjectStore,
  pending: pg.Pool,
  prefix = "attachments",
): AttachmentSink {
  return {
    async reserve(files) {
      const keys = files.map(({ contentType, name }) => {
        const type = safeContentType(contentType);
        const extension = EXTENSIONS[type.split(";")[0]!.trim()] ?? path.extname(name).slice(1);
        return newObjectKey(prefix, extension);
      });
      await recordPending(pending, keys);
      return keys;
    },
    async put(key, body, contentType) {
      const stored = await objects.put(key, body, { contentType: safeContentType(contentType) });
      return { size: stored.size };
    },
    async settle(client, keys) {
      const settled = await settlePending(client, keys);
      if (settled !== new Set(keys).size) {
        throw new AppError(
          503,
          "attachment_swept",
          "An attachment of this request was removed as unused while the request ran; send it again.",
        );
      }
    },
    async discard(keys) {
      for (const key of keys) await objects.delete(key);
      await forgetPending(pending, keys);
    },
  };
}

/** Stores one file: reserves its key, then writes it. */
export async function storeOne(
  sink: AttachmentSink,
  body: Readable | Buffer,
  file: AttachmentFile,
): Promise<{ key: string; size: number }> {
  let key: string;
  try {
    [key] = (await sink.reserve([file])) as [string];
  } catch (error) {
    // A body never read would hold its request open.
    if (!Buffer.isBuffer(body)) body.destroy();
    throw error;
  }
  try {
    const { size } = await sink.put(key, body, file.contentType);
    return { key, size };
  } catch (error) {
    // Nothing was committed: the store left no object, and the record can go now.
    await sink.discard([key]).catch(() => undefined);
    throw error;
  }
}
