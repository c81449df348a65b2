import { createHash, randomUUID } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { unlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import {
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  type PutObjectCommandInput,
} from "@aws-sdk/client-s3";
import type { FastifyBaseLogger } from "fastify";
import { AppError } from "../errors.js";
import {
  safeContentType,
  validateKey,
  type ObjectStore,
  type PutResult,
  type StoredObject,
} from "./object-store.js";

export interface S3StoreOptions {
  bucket: string;
  region: string;
  /** For MinIO, s3rver and other S3-compatible stores; absent means AWS. */
  endpoint?: string | undefined;
  forcePathStyle?: boolean;
  /** Prepended to every key, so that Assay can share a bucket. */
  prefix?: string | undefined;
  /** Where a streamed body is spooled to learn its length; the OS temp folder by default. */
  spoolDir?: string;
}

interface Spooled {
  body: Buffer | string;
  size: number;
  md5: Buffer;
}

/** The status S3 answered with; undefined when it never answered (refused, timed out). */
const statusOf = (error: unknown) =>
  (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;

/**
 * Objects in an S3 bucket or any S3-compatible store. Credentials come from the SDK's standard
 * chain (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, a profile, an instance or task role):
 * Assay never reads or logs them.
 */
export class S3ObjectStore implements ObjectStore {
  private readonly client: S3Client;
  private readonly prefix: string;

  constructor(
    private readonly options: S3StoreOptions,
    private readonly log: FastifyBaseLogger,
  ) {
    this.client = new S3Client({
      region: options.region,
      endpoint: options.endpoint,
      forcePathStyle: options.forcePathStyle ?? false,
      // The SDK's default CRC checksums send streamed bodies aws-chunked, which several
      // S3-compatible stores reject or store framed; Content-MD5 guards integrity instead.
      requestChecksumCalculation: "WHEN_REQUIRED",
      responseChecksumValidation: "WHEN_REQUIRED",
      // A store that does not answer must fail the request (503), not hang it.
      requestHandler: { connectionTimeout: 5_000, socketTimeout: 60_000 },
    });
    const prefix = options.prefix?.replace(/\/+$/, "") ?? "";
    this.prefix = prefix ? `${prefix}/` : "";
  }

  private objectKey(key: string): string {
    return `${this.prefix}${validateKey(key)}`;
  }

  /** Runs one S3 call; an unreachable or failing store becomes a 503 a client may retry. */
  private async call<T>(action: string, key: string, send: () => Promise<T>): Promise<T> {
    try {
      return await send();
    } catch (error) {
      const status = statusOf(error);
      const { name, message } = error as Error;
      if (name === "NoSuchKey") throw error;
      if (status !== undefined && status < 500) {
        // A refusal (AccessDenied, NoSuchBucket) is a configuration fault, a 500. Only name,
        // status and message go on: the SDK's error carries the whole response for the log.
        throw new Error(`S3 refused ${action} of ${key}: ${name} (${status}): ${message}`);
      }
      this.log.warn({ action, key, status, error: { name, message } }, "object store failed");
      throw new AppError(
        503,
        "object_store_unavailable",
        "The object store cannot be reached; try again later.",
      );
    }
  }

  async put(
    key: string,
    body: Readable | Buffer,
    options: { contentType: string },
  ): Promise<PutResult> {
    const objectKey = this.objectKey(key);
    const spooled = Buffer.isBuffer(body)
      ? { body, size: body.length, md5: createHash("md5").update(body).digest() }
      : await this.spool(body);
    try {
      const input: PutObjectCommandInput = {
        Bucket: this.options.bucket,
        Key: objectKey,
        Body: typeof spooled.body === "string" ? createReadStream(spooled.body) : spooled.body,
        ContentLength: spooled.size,
        ContentType: safeContentType(options.contentType),
        ContentMD5: spooled.md5.toString("base64"),
      };
      const result = await this.call("put", key, () =>
        this.client.send(new PutObjectCommand(input)),
      );
      return { key, size: spooled.size, etag: result.ETag ?? `"${spooled.md5.toString("hex")}"` };
    } finally {
      if (typeof spooled.body === "string") await unlink(spooled.body).catch(() => undefined);
    }
  }

  /**
   * Writes a stream to a temporary file, learning its length and MD5 on the way: PutObject
   * needs the length up front, and the whole object must never sit in memory.
   */
  private async spool(body: Readable): Promise<Spooled> {
    const file = path.join(this.options.spoolDir ?? tmpdir(), `assay-spool-${randomUUID()}`);
    const hash = createHash("md5");
    let size = 0;
    try {
      await pipeline(
        body,
        async function* (chunks: AsyncIterable<Buffer>) {
          for await (const chunk of chunks) {
            hash.update(chunk);
            size += chunk.length;
            yield chunk;
          }
        },
        createWriteStream(file, { flags: "wx", mode: 0o600 }),
      );
    } catch (error) {
      await unlink(file).catch(() => undefined);
      throw error;
    }
    return { body: file, size, md5: hash.digest() };
  }

  async get(key: string): Promise<StoredObject | undefined> {
    const objectKey = this.objectKey(key);
    let result;
    try {
      result = await this.call("get", key, () =>
        this.client.send(new GetObjectCommand({ Bucket: this.options.bucket, Key: objectKey })),
      );
    } catch (error) {
      if ((error as Error).name === "NoSuchKey") return undefined;
      throw error;
    }
    if (!(result.Body instanceof Readable)) {
      throw new Error("S3 GetObject returned a body that is not a Node stream");
    }
    return {
      body: result.Body,
      size: result.ContentLength ?? 0,
      contentType: result.ContentType ?? "application/octet-stream",
      etag: result.ETag ?? `"${objectKey}"`,
      lastModified: result.LastModified ?? new Date(0),
    };
  }

  async delete(key: string): Promise<void> {
    const objectKey = this.objectKey(key);
    await this.call("delete", key, () =>
      this.client.send(new DeleteObjectCommand({ Bucket: this.options.bucket, Key: objectKey })),
    );
  }

  /** The keys under this store's prefix, a page (up to 1,000) per request. */
  async *list(): AsyncIterable<string> {
    let token: string | undefined;
    do {
      const page = await this.call("list", this.prefix || "/", () =>
        this.client.send(
          new ListObjectsV2Command({
            Bucket: this.options.bucket,
            Prefix: this.prefix || undefined,
            ContinuationToken: token,
          }),
        ),
      );
      for (const item of page.Contents ?? []) {
        if (item.Key?.startsWith(this.prefix)) yield item.Key.slice(this.prefix.length);
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  /** Closes the client's sockets. */
  destroy(): void {
    this.client.destroy();
  }
}
