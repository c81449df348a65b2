import type { Readable } from "node:stream";
import type { AttachmentInput, ResultInput } from "@assay/core";
import type pg from "pg";
import { copyRows, type CopyValue } from "./copy.js";
import type { UploadFiles } from "./parsers/types.js";
import { derivedTestRunTestId, RESULT_COLUMNS, resultRow } from "./result-rows.js";
import { explicitTestId, identityOf, resolveTestIds, type Family } from "./test-ids.js";

/** Where attachment bytes go (object storage); returns the key the row refers to. */
export interface AttachmentSink {
  store(
    body: Readable | Buffer,
    contentType: string,
    name: string,
  ): Promise<{ key: string; size: number }>;
}

export interface WriterOptions {
  runId: number;
  family: Family;
  testIdPattern: RegExp;
  files: UploadFiles;
  attachments: AttachmentSink;
  /**
   * Facts of the whole run (site, branch, commit, executor) for results whose report does not
   * carry them per test, as Cucumber and Mocha reports do not.
   */
  runFacts?: Pick<ResultInput, "nora_site" | "branch" | "commit_hash" | "executor" | "baseurl">;
  /** test_run_test_ids the run already holds: results with these are duplicates, skipped. */
  existing: Set<string>;
  batchSize?: number;
}

export interface WriteSummary {
  inserted: number;
  duplicates: number;
  attachments: number;
  /** Attachment references with no matching uploaded file. */
  missingAttachments: string[];
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

/**
 * Writes parsed results to PostgreSQL in batches: stable test ids resolved per batch, results
 * and API requests by COPY, attachments streamed to object storage first. Runs inside the
 * caller's transaction, so nothing is visible (or kept) unless the whole upload commits.
 */
export class ResultsWriter {
  private batch: { result: ResultInput; files: UploadFiles }[] = [];
  private readonly seenInUpload = new Map<string, number>();
  readonly summary: WriteSummary = {
    inserted: 0,
    duplicates: 0,
    attachments: 0,
    missingAttachments: [],
  };

  constructor(
    private readonly client: pg.PoolClient,
    private readonly options: WriterOptions,
  ) {}

  /** Queues a result; `files` resolves its attachment paths (default: the upload's files). */
  async add(result: ResultInput, files: UploadFiles = this.options.files): Promise<void> {
    this.batch.push({ result, files });
    if (this.batch.length >= (this.options.batchSize ?? 2000)) await this.flush();
  }

  async flush(): Promise<void> {
    const queued = this.batch;
    this.batch = [];
    if (queued.length === 0) return;
    const batch = queued.map((q) => q.result);
    const { family, testIdPattern, runId } = this.options;
    const identities = batch.map((r) => ({
      // An id the result states outright wins over one read from its tags or title.
      explicitId:
        r.test_id ??
        explicitTestId({ tags: r.tags ?? [], texts: [r.title, r.name] }, testIdPattern),
      identity: identityOf(family, r.file, r.suite_path ?? [], r.name),
      title: r.title ?? r.name,
      file: r.file,
    }));
    const kept: {
      result: ResultInput;
      files: UploadFiles;
      testRunTestId: string;
      index: number;
    }[] = [];
    batch.forEach((result, index) => {
      const testRunTestId = this.testRunTestId(result, identities[index]!.identity);
      if (this.options.existing.has(testRunTestId)) this.summary.duplicates++;
      else {
        this.options.existing.add(testRunTestId);
        kept.push({ result, files: queued[index]!.files, testRunTestId, index });
      }
    });
    if (kept.length === 0) return;
    const testIds = await resolveTestIds(
      this.client,
      family,
      kept.map((k) => identities[k.index]!),
    );
    const ids = await this.allocateResultIds(kept.length);
    await copyRows(
      this.client,
      "results",
      RESULT_COLUMNS,
      kept.map((k, i) =>
        resultRow(withRunFacts(k.result, this.options.runFacts), {
          id: ids[i]!,
          runId,
          testRunTestId: k.testRunTestId,
          testId: testIds[i]!,
        }),
      ),
    );
    await this.writeChildren(kept, ids);
    this.summary.inserted += kept.length;
  }

  /** An explicit id, or one derived from the test's identity; repeats within one upload get a suffix. */
  private testRunTestId(result: ResultInput, identity: string): string {
    const base = result.test_run_test_id ?? derivedTestRunTestId(identity, result.attempt ?? 0);
    const seen = this.seenInUpload.get(base) ?? 0;
    this.seenInUpload.set(base, seen + 1);
    return seen === 0 ? base : `${base}~${seen + 1}`;
  }

  private async allocateResultIds(count: number): Promise<number[]> {
    const { rows } = await this.client.query<{ id: string }>(
      "SELECT nextval(pg_get_serial_sequence('results', 'id')) AS id FROM generate_series(1, $1)",
      [count],
    );
    return rows.map((r) => Number(r.id));
  }

  private async writeChildren(
    results: readonly { result: ResultInput; files: UploadFiles }[],
    ids: readonly number[],
  ): Promise<void> {
    const attachmentRows: CopyValue[][] = [];
    const requestRows: CopyValue[][] = [];
    for (const [i, { result, files }] of results.entries()) {
      const resultId = ids[i]!;
      for (const attachment of result.attachments ?? []) {
        const row = await this.storeAttachment(result, attachment, resultId, files);
        if (row) attachmentRows.push(row);
      }
      for (const request of result.api_requests ?? []) {
        requestRows.push([
          this.options.runId,
          resultId,
          request.method,
          request.url,
          request.status,
          request.response_time_ms,
        ]);
      }
    }
    await copyRows(this.client, "attachments", ATTACHMENT_COLUMNS, attachmentRows);
    await copyRows(this.client, "api_requests", API_REQUEST_COLUMNS, requestRows);
    this.summary.attachments += attachmentRows.length;
  }

  private async storeAttachment(
    result: ResultInput,
    attachment: AttachmentInput,
    resultId: number,
    files: UploadFiles,
  ): Promise<CopyValue[] | undefined> {
    const contentType = attachment.content_type ?? "application/octet-stream";
    let body: Readable | Buffer | undefined;
    if (attachment.body_base64 !== undefined) body = Buffer.from(attachment.body_base64, "base64");
    else if (attachment.path !== undefined) body = findFile(files, attachment.path)?.open();
    if (!body) {
      this.summary.missingAttachments.push(attachment.path ?? attachment.name);
      return undefined;
    }
    const stored = await this.options.attachments.store(body, contentType, attachment.name);
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
}

/** The result, with the run's facts filling in what it does not say itself. */
function withRunFacts(result: ResultInput, facts: WriterOptions["runFacts"]): ResultInput {
  if (!facts) return result;
  return {
    ...result,
    nora_site: result.nora_site ?? facts.nora_site,
    branch: result.branch ?? facts.branch,
    commit_hash: result.commit_hash ?? facts.commit_hash,
    executor: result.executor ?? facts.executor,
    baseurl: result.baseurl ?? facts.baseurl,
  };
}

/** Reports name attachments by the path they had on the CI machine: match it, then its tail. */
function findFile(files: UploadFiles, reference: string) {
  const normalized = reference.replace(/\\/g, "/");
  const exact = files.get(normalized);
  if (exact) return exact;
  const parts = normalized.split("/").filter(Boolean);
  for (let i = 1; i < parts.length; i++) {
    const found = files.get(parts.slice(i).join("/"));
    if (found) return found;
  }
  return undefined;
}

/** step_index counts all steps; stored, it points into json_steps (the main steps). */
function mainStepIndex(result: ResultInput, index: number | undefined): number | null {
  if (index === undefined) return null;
  const steps = result.steps ?? [];
  if (steps[index]?.before) return null;
  return steps.slice(0, index).filter((s) => !s.before).length;
}
