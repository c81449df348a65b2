import { Agent } from "node:https";
import { Agent as HttpAgent } from "node:http";
import type { Readable } from "node:stream";
import { GetObjectCommand, ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import type { Connector, DocumentInfo, RecordsRead } from "./connector.js";
import { countNdjsonLines, readNdjsonRecords } from "./ndjson.js";

export interface S3SourceOptions {
  bucket: string;
  region: string;
  endpoint: string | undefined;
  forcePathStyle: boolean;
  /** Absent: the SDK's own chain (instance role, AWS_PROFILE, AWS_ACCESS_KEY_ID...). */
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
  timeoutMs: number;
  maxConnections: number;
}

/** NDJSON files in an S3 bucket (or an S3-compatible store): listed, counted while streaming. */
export class S3Connector implements Connector {
  readonly where: string;
  private readonly client: S3Client;

  constructor(private readonly options: S3SourceOptions) {
    this.where = options.bucket;
    const agent = { keepAlive: true, maxSockets: options.maxConnections };
    this.client = new S3Client({
      region: options.region,
      endpoint: options.endpoint,
      forcePathStyle: options.forcePathStyle,
      credentials: options.credentials,
      // Checksums only where S3 requires them: S3-compatible stores do not all speak the new ones.
      requestChecksumCalculation: "WHEN_REQUIRED",
      responseChecksumValidation: "WHEN_REQUIRED",
      maxAttempts: 2,
      requestHandler: {
        connectionTimeout: options.timeoutMs,
        requestTimeout: options.timeoutMs,
        // Without it the handler only logs a warning and the request waits forever.
        throwOnRequestTimeout: true,
        httpAgent: new HttpAgent(agent),
        httpsAgent: new Agent(agent),
      },
    });
  }

  async listDocuments(prefix: string): Promise<DocumentInfo[]> {
    const documents: DocumentInfo[] = [];
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({
          Bucket: this.options.bucket,
          Prefix: prefix,
          ContinuationToken: token,
        }),
      );
      for (const item of page.Contents ?? []) {
        if (!item.Key || item.Key.endsWith("/")) continue;
        documents.push({
          key: item.Key,
          size: item.Size ?? 0,
          lastModified: item.LastModified ?? null,
        });
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return documents;
  }

  private async body(key: string): Promise<Readable> {
    const object = await this.client.send(
      new GetObjectCommand({ Bucket: this.options.bucket, Key: key }),
    );
    return object.Body as Readable;
  }

  async countDocument(key: string): Promise<number> {
    return countNdjsonLines(await this.body(key));
  }

  async count(prefix: string): Promise<number> {
    let total = 0;
    for (const document of await this.listDocuments(prefix))
      total += await this.countDocument(document.key);
    return total;
  }

  async readRecords(key: string, _query: unknown, limit: number): Promise<RecordsRead> {
    return readNdjsonRecords(await this.body(key), limit);
  }

  async close(): Promise<void> {
    this.client.destroy();
  }
}
