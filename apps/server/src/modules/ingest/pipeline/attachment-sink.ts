import path from "node:path";
import { newObjectKey, safeContentType, type ObjectStore } from "../../../storage/object-store.js";
import type { AttachmentSink } from "./results-writer.js";

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
 * Attachments go to object storage under server-made keys. They are written before the upload
 * commits; if it then fails, the objects are orphans no row refers to, never the reverse.
 */
export function objectStoreSink(objects: ObjectStore, prefix = "attachments"): AttachmentSink {
  return {
    async store(body, contentType, name) {
      const type = safeContentType(contentType);
      const extension = EXTENSIONS[type.split(";")[0]!.trim()] ?? path.extname(name).slice(1);
      const stored = await objects.put(newObjectKey(prefix, extension), body, {
        contentType: type,
      });
      return { key: stored.key, size: stored.size };
    },
  };
}
