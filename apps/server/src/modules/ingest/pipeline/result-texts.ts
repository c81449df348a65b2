import { hash } from "node:crypto";
import { encodeCopyRow } from "../encoding/copy.js";
import { FingerprintTable } from "../encoding/fingerprints.js";
import type { RowBuffer } from "../encoding/row-buffer.js";

/** Columns of the COPY rows of `texts` (a temporary table, then result_texts: migration 0216). */
export const TEXT_COLUMNS = ["hash", "body"] as const;

/**
 * The long texts of an upload's results (steps) that are stored once a month in result_texts
 * instead of on each row (docs/architecture.md, "Texts stored once"). A result holds the text's
 * key: the first 128 bits of its SHA-256 as a uuid (32 hex digits, which PostgreSQL reads as one;
 * not MD5, whose collisions can be made on purpose: a crafted report could show its text in place
 * of another result's). Each distinct text of
 * the upload is handed to the batch once, as a COPY row of TEXT_COLUMNS; a text already stored
 * this month (by an earlier run) is sent again and skipped by the database (ON CONFLICT).
 */
export class ResultTexts {
  /** The texts this upload has handed over already, by their key (base64url). */
  private readonly seen = new FingerprintTable();

  /**
   * The key of `text`, or null when there is no text (null or empty); a text new to this upload
   * is appended to `into` as a COPY row.
   */
  ref(text: string | null | undefined, into: RowBuffer): string | null {
    if (text === null || text === undefined || text === "") return null;
    const digest = hash("sha256", text, "buffer").subarray(0, 16);
    const key = digest.toString("base64url");
    const ref = digest.toString("hex");
    if (this.seen.get(key) === undefined) {
      this.seen.set(key, 1);
      into.append(encodeCopyRow([ref, text]));
    }
    return ref;
  }

  release(): void {
    this.seen.release();
  }
}
