import { randomUUID } from "node:crypto";
import type { Readable } from "node:stream";
import { AppError } from "../errors.js";

/**
 * Where screenshots and other attachments live: a local folder or an S3-compatible bucket,
 * behind one interface so that ingestion and the download route never know which.
 *
 * Keys are made by the server (newObjectKey); a client-supplied file name is kept, if at all,
 * as data next to the key, never as the key or a path.
 */
export interface ObjectStore {
  /**
   * Stores `body` under `key`, streaming: a large body is never held in memory. The object
   * becomes visible only once complete. Keys are never reused, so there is no overwrite case.
   */
  put(key: string, body: Readable | Buffer, options: { contentType: string }): Promise<PutResult>;
  /** The object and its metadata, or undefined when there is no object under `key`. */
  get(key: string): Promise<StoredObject | undefined>;
  /** Removes the object; removing a missing object is not an error. */
  delete(key: string): Promise<void>;
  /** Every stored key, in no set order (for `assay backup`; half-written objects are not listed). */
  list(): AsyncIterable<string>;
}

export interface PutResult {
  key: string;
  size: number;
  /** An HTTP entity tag, quoted, as sent in the ETag header. */
  etag: string;
}

export interface StoredObject {
  body: Readable;
  size: number;
  contentType: string;
  /** An HTTP entity tag, quoted, as sent in the ETag header. */
  etag: string;
  lastModified: Date;
}

/** S3's own limit; the local store keeps to it so that both accept the same keys. */
const MAX_KEY_LENGTH = 1024;
const KEY_CHARS = /^[A-Za-z0-9/_.-]*$/;
const ALLOWED = "keys use only letters, digits and / _ . -";

function decodeRepeatedly(text: string): string {
  let current = text;
  // Three rounds catch double and triple encoding (%252e) without looping on odd input.
  for (let i = 0; i < 3 && current.includes("%"); i++) {
    try {
      current = decodeURIComponent(current);
    } catch {
      return current;
    }
  }
  return current;
}

/** Why `key` is refused, or undefined when it is a well-formed key. */
export function keyProblem(key: string): string | undefined {
  if (key.length === 0) return "the key is empty";
  if (key.length > MAX_KEY_LENGTH) return `the key is longer than ${MAX_KEY_LENGTH} characters`;
  if (key.includes("\0")) return "it contains a NUL character";
  if (key.includes("%")) {
    const decoded = decodeRepeatedly(key);
    const slashes = (text: string) => text.split("/").length;
    const traversal =
      decoded.split(/[/\\]/).includes("..") ||
      /[\\\0]/.test(decoded) ||
      slashes(decoded) > slashes(key);
    if (traversal)
      return "it contains encoded traversal (an encoded '..', slash, backslash or NUL)";
    return `it contains percent-encoding; ${ALLOWED}`;
  }
  if (key.includes("\\")) return "it contains a backslash";
  if (key.startsWith("/")) return "it starts with a slash";
  const segments = key.split("/");
  if (segments.includes("..")) return "it contains a '..' segment";
  if (segments.includes("")) return "it has an empty segment (// or a trailing /)";
  if (segments.some((s) => s.startsWith("."))) return "a segment starts with a dot";
  const bad = [...key].find((c) => !KEY_CHARS.test(c));
  if (bad !== undefined) return `it contains ${JSON.stringify(bad)}; ${ALLOWED}`;
  return undefined;
}

/**
 * Refuses a key that could leave the store's root or that a client could have shaped: throws
 * a 400 AppError (code invalid_object_key) saying what is wrong, else returns the key.
 */
export function validateKey(key: string): string {
  const problem = keyProblem(key);
  if (problem) throw new AppError(400, "invalid_object_key", `Invalid object key: ${problem}.`);
  return key;
}

/**
 * A fresh server-made key: `<prefix>/<yyyy>/<mm>/<uuid>[.<extension>]`, dated in UTC so that a
 * folder listing groups objects by month. An extension that is not 1-16 letters or digits is
 * dropped: it may come from a client's file name and the key does not need it.
 */
export function newObjectKey(prefix: string, extension?: string, now = new Date()): string {
  const base = prefix.replace(/\/+$/, "");
  const problem = keyProblem(base);
  if (problem) throw new Error(`newObjectKey: bad prefix ${JSON.stringify(prefix)}: ${problem}`);
  const ext = extension?.replace(/^\./, "").toLowerCase();
  const suffix = ext && /^[a-z0-9]{1,16}$/.test(ext) ? `.${ext}` : "";
  const month = String(now.getUTCMonth() + 1).padStart(2, "0");
  return `${base}/${now.getUTCFullYear()}/${month}/${randomUUID()}${suffix}`;
}

const CONTENT_TYPE =
  /^[\w!#$&^.+-]+\/[\w!#$&^.+-]+(\s*;\s*[\w!#$&^.+-]+=("[^"\r\n]*"|[\w!#$&^.+-]+))*$/;

/**
 * The content type to store: a well-formed media type, else application/octet-stream, so that a
 * value from a report can never inject a header when the object is served.
 */
export function safeContentType(contentType: string): string {
  const trimmed = contentType.trim();
  return trimmed.length <= 200 && CONTENT_TYPE.test(trimmed) ? trimmed : "application/octet-stream";
}
