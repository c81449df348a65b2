import { createHash } from "node:crypto";
import {
  FAILURE_TEXT_CHARS,
  fingerprintFailure,
  PENDING_MARKER,
  type FailureFingerprint,
  type ResultInput,
} from "@assay/core";
import type { RunFacts } from "./result-rows.js";
import { storedText } from "../encoding/copy.js";

/**
 * Failed results fingerprinted where they are parsed (issue 34): in the upload's parse worker,
 * beside the other cores' work, instead of triage reading the run's failures back and
 * fingerprinting them in the request's thread once everything is written (98 + 143 ms of a
 * 100k-test upload's 10,000 failures). Triage files these when the upload wrote a new run, less
 * the attempts of retried tests that are not final; otherwise it reads the run
 * (ResultsWriter.failures).
 */

/** The stored fingerprint (failure_groups.fingerprint): 16 hex digits of SHA-256 over core's key. */
export function fingerprintHash(key: FailureFingerprint["key"]): string {
  return createHash("sha256").update(key).digest("hex").slice(0, 16);
}

/** A cause's words, for its group (failure_groups). */
export type Cause = Omit<FailureFingerprint, "key">;

/** A failure of a batch, by its position there (the ids come with the batch's write). */
export interface PreparedFailure {
  index: number;
  /** Its cause's fingerprintHash. */
  hash: string;
  /** The cause's words, with the upload's first failure of each cause only (memory: one a cause). */
  cause?: Cause;
  platform: string | null;
  branch: string | null;
  site: string | null;
  /** The result's start_time as the report gave it (ISO text with an offset). */
  start: string | null;
}

/** A written failure, as triage files it (runs/failures.repo.ts reads the same from the run). */
export interface WrittenFailure extends Omit<PreparedFailure, "index"> {
  resultId: number;
  testId: number;
}

/**
 * The failure a result is, as triage's read would find it once stored: a final failed result
 * whose message holds no pending marker, its texts as PostgreSQL keeps them (a NUL is stored as
 * U+FFFD: encoding/copy.ts) and cut as the read cuts them. Undefined for any other result.
 * `causes`: the hashes of the causes the upload gave already (their words are not sent again).
 */
export function preparedFailure(
  index: number,
  result: ResultInput,
  facts: RunFacts,
  causes: Set<string>,
): PreparedFailure | undefined {
  if (result.status !== "failed") return undefined;
  const message = storedText(result.error_message);
  if (message?.includes(PENDING_MARKER)) return undefined;
  const { key, ...cause } = fingerprintFailure({
    name: storedText(result.error_name),
    message: cut(message),
    stack: cut(storedText(result.error_stack)),
  });
  const hash = fingerprintHash(key);
  const first = !causes.has(hash);
  if (first) causes.add(hash);
  return {
    index,
    hash,
    ...(first && { cause }),
    platform: storedText(result.platform),
    branch: storedText(result.branch ?? facts.branch),
    site: storedText(result.nora_site ?? facts.nora_site),
    start: result.start_time ?? null,
  };
}

/** The first FAILURE_TEXT_CHARS code points, as PostgreSQL's left() counts them. */
function cut(text: string | null): string | null {
  if (text === null || text.length <= FAILURE_TEXT_CHARS) return text;
  let points = 0;
  let end = 0;
  for (const char of text) {
    if (points++ === FAILURE_TEXT_CHARS) break;
    end += char.length;
  }
  return text.slice(0, end);
}
