import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { LRUCache } from "lru-cache";
import { createSidePool, type Db } from "../db/pool.js";
import { readSnapshot } from "./answer-cache.repo.js";
import {
  acceptedEncoding,
  compressBody,
  COMPRESS_THRESHOLD_BYTES,
  type ContentEncoding,
} from "./compression.js";

/*
 * Read answers kept as sent (JSON, compressed), for the routes that declare `config.keepAnswer`:
 * the run lists, the results dialog's pages and history icons, a test's history, Top Fails and
 * the Dashboard charts, which a team's browsers ask again and again with the same URLs. Building
 * one costs 1-8 ms of the server's CPU and up to four queries; sending a kept one, a tenth of a
 * millisecond and a share of one tiny query (docs/performance.md, "Load").
 *
 * An answer is kept with the database snapshot read before it was built (answer-cache.repo.ts)
 * and sent again only while the snapshot is the same, i.e. while no transaction that wrote has
 * ended since (an ingest, a rerun, a tag, a delete, anything): a write is seen by the next read
 * on every server of the database, and no write path needs to tell the cache anything. Data read
 * after the snapshot can only be newer than it. Answers that also depend on the clock (Top Fails'
 * two months, the Dashboard's days) declare how long they may be kept.
 */

export interface KeepAnswer {
  /** Kept at most this long whatever the database (a time window moves); default MAX_AGE_MS. */
  maxAgeMs?: number;
}

declare module "fastify" {
  interface FastifyContextConfig {
    /** GET answers kept while the database is unchanged (answer-cache.ts); never per caller. */
    keepAnswer?: KeepAnswer;
  }
  interface FastifyRequest {
    /** Where the answer of a keepAnswer route is kept, and the snapshot it was built after. */
    answerKeep?: { key: string; version: string; built: () => void };
  }
}

/** A route's config: its answer kept while the database is unchanged. */
export const KEEP_ANSWER = { keepAnswer: {} };
/** The same, a minute at most: answers counted from now (Top Fails' two months, the Dashboard's days). */
export const KEEP_ANSWER_A_MINUTE = { keepAnswer: { maxAgeMs: 60_000 } };

/** The longest an answer is kept: a bound for whatever the snapshot cannot tell. */
export const MAX_AGE_MS = 5 * 60_000;
/** Larger answers (a whole big run's history) are built each time, as before. */
const KEEP_MAX_BYTES = 4 * 1024 * 1024;
/** A request waits this long at most for the same answer being built by another. */
const WAIT_MAX_MS = 5_000;

interface KeptAnswer {
  version: string;
  at: number;
  payload: Buffer | string;
  type: string;
  encoding: string | undefined;
  vary: string | undefined;
}

/** Kept answers by URL and encoding, bounded in bytes. */
export class AnswerCache {
  private readonly answers: LRUCache<string, KeptAnswer>;

  constructor(
    maxBytes = 32 * 1024 * 1024,
    private readonly now = () => Date.now(),
  ) {
    this.answers = new LRUCache({
      maxSize: maxBytes,
      sizeCalculation: (answer) => Math.max(1, answer.payload.length + 200),
    });
  }

  get(key: string, version: string, maxAgeMs = MAX_AGE_MS): KeptAnswer | undefined {
    const answer = this.answers.get(key);
    if (!answer || answer.version !== version) return undefined;
    return this.now() - answer.at < Math.min(maxAgeMs, MAX_AGE_MS) ? answer : undefined;
  }

  set(key: string, answer: Omit<KeptAnswer, "at">): void {
    this.answers.set(key, { ...answer, at: this.now() });
  }
}

/**
 * Reads the snapshot once for all the requests that arrive while a read is on its way: a request
 * joins only a read not sent yet, so the snapshot it gets was taken after it arrived (a client
 * that has just written reads its write), and 50 readers cost one query at a time, not 50.
 */
export class SnapshotReader {
  private sending: Promise<string> | undefined;
  private inFlight: Promise<unknown> = Promise.resolve();

  constructor(private readonly read: () => Promise<string>) {}

  version(): Promise<string> {
    if (this.sending) return this.sending;
    const next = this.inFlight.then(
      () => this.start(),
      () => this.start(),
    );
    this.sending = next;
    return next;
  }

  private start(): Promise<string> {
    this.sending = undefined;
    const read = this.read();
    this.inFlight = read;
    return read;
  }
}

function cacheKey(request: FastifyRequest): string {
  const encoding =
    request.headers["x-no-compression"] === undefined
      ? (acceptedEncoding(request.headers["accept-encoding"]) ?? "identity")
      : "identity";
  return `${encoding}\u0000${request.url}`;
}

function sendKept(reply: FastifyReply, answer: KeptAnswer) {
  void reply.header("content-type", answer.type);
  if (answer.vary) void reply.header("vary", answer.vary);
  if (answer.encoding) void reply.header("content-encoding", answer.encoding);
  return reply.send(answer.payload);
}

/** The answer as kept: compressed here when the plugin would stream it (again on every send). */
async function finalBytes(reply: FastifyReply, key: string, payload: string | Buffer) {
  const encoding = reply.getHeader("content-encoding");
  if (encoding !== undefined) return { bytes: payload, encoding: String(encoding) };
  const wanted = key.slice(0, key.indexOf("\u0000"));
  if (wanted === "identity" || payload.length < COMPRESS_THRESHOLD_BYTES)
    return { bytes: payload, encoding: undefined };
  const bytes = await compressBody(payload, wanted as ContentEncoding);
  void reply.header("content-encoding", wanted).header("vary", "accept-encoding");
  reply.removeHeader("content-length");
  return { bytes, encoding: wanted };
}

/**
 * Keeps the answers of keepAnswer routes (after validation and the access check, which still
 * run on every request). Registered after the compression, so the bytes kept are the ones sent.
 * Requests that miss the same answer at once wait for one of them to build it.
 */
export function registerAnswerCache(
  app: FastifyInstance,
  db: Db,
  options: { cache?: AnswerCache; readVersion?: () => Promise<string> } = {},
) {
  const cache = options.cache ?? new AnswerCache();
  let readVersion = options.readVersion;
  if (!readVersion) {
    // A connection of its own: every kept read waits for this query, which must not queue
    // behind the pool's long ones (an upload's COPY, a big run's results).
    const pool = createSidePool(db, 1, "assay-answer-versions");
    app.addHook("onClose", () => pool.end());
    readVersion = () => readSnapshot(pool);
  }
  const snapshots = new SnapshotReader(readVersion);
  const building = new Map<string, { version: string; done: Promise<void> }>();

  app.addHook("preHandler", async (request, reply) => {
    const rule = request.routeOptions.config?.keepAnswer;
    if (!rule || request.method !== "GET") return;
    const key = cacheKey(request);
    const version = await snapshots.version();
    // force=true (the lists' spec parameter) or Cache-Control: no-cache (a browser's hard reload,
    // a benchmark timing the build) builds the answer again, and keeps it.
    const force =
      (request.query as { force?: unknown } | undefined)?.force === true ||
      /\bno-cache\b/i.test(request.headers["cache-control"] ?? "");
    let kept = force ? undefined : cache.get(key, version, rule.maxAgeMs);
    const other = building.get(key);
    if (!kept && !force && other?.version === version) {
      await Promise.race([other.done, new Promise((r) => setTimeout(r, WAIT_MAX_MS).unref())]);
      kept = cache.get(key, version, rule.maxAgeMs);
    }
    if (kept) return sendKept(reply, kept);
    let built = () => {};
    const done = new Promise<void>((resolve) => (built = resolve));
    const mine = { version, done };
    building.set(key, mine);
    request.answerKeep = {
      key,
      version,
      built: () => {
        if (building.get(key) === mine) building.delete(key);
        built();
      },
    };
  });

  app.addHook("onSend", async (request, reply, payload) => {
    const keep = request.answerKeep;
    if (!keep || reply.statusCode !== 200) return payload;
    if (typeof payload !== "string" && !Buffer.isBuffer(payload)) return payload;
    if (payload.length > KEEP_MAX_BYTES) return payload;
    const { bytes, encoding } = await finalBytes(reply, keep.key, payload);
    const type = String(reply.getHeader("content-type") ?? "application/json; charset=utf-8");
    const vary = reply.getHeader("vary");
    cache.set(keep.key, {
      version: keep.version,
      payload: bytes,
      type,
      encoding,
      vary: vary === undefined ? undefined : String(vary),
    });
    keep.built();
    return bytes;
  });
  // Whatever the answer (an error, a closed connection), those waiting for it go on.
  const release = async (request: FastifyRequest) => request.answerKeep?.built();
  app.addHook("onResponse", release);
  app.addHook("onRequestAbort", release);
}
