import { MongoClient } from "mongodb";
import { unsupported, type Connector, type RecordQuery, type RecordsRead } from "./connector.js";

export interface DocumentDbOptions {
  url: string;
  database: string;
  timeoutMs: number;
  maxConnections: number;
}

/**
 * Amazon DocumentDB through the official mongodb driver, pinned at 6.16.0: DocumentDB 4.0 answers
 * wire version 7, which 6.17 and later refuse (they need MongoDB 4.2, wire version 8). Counts
 * are countDocuments (an aggregate).
 */
export class DocumentDbConnector implements Connector {
  readonly where: string;
  private readonly client: MongoClient;

  constructor(private readonly options: DocumentDbOptions) {
    this.where = `${new URL(options.url).host}/${options.database}`;
    this.client = new MongoClient(options.url, {
      maxPoolSize: options.maxConnections,
      serverSelectionTimeoutMS: options.timeoutMs,
      connectTimeoutMS: options.timeoutMs,
      socketTimeoutMS: options.timeoutMs,
      // DocumentDB does not support retryable writes; counts never write anyway.
      retryWrites: false,
    });
  }

  async count(collection: string): Promise<number> {
    return this.client
      .db(this.options.database)
      .collection(collection)
      .countDocuments({}, { maxTimeMS: this.options.timeoutMs });
  }

  listDocuments(): Promise<never> {
    return unsupported("DocumentDB", "list documents");
  }

  countDocument(): Promise<never> {
    return unsupported("DocumentDB", "count a document");
  }

  async readRecords(collection: string, query: RecordQuery, limit: number): Promise<RecordsRead> {
    const projection = Object.fromEntries([["_id", 0], ...query.columns.map((c) => [c, 1])]);
    const records = await this.client
      .db(this.options.database)
      .collection(collection)
      .find({ [query.key]: { $in: [...query.keys] } }, { projection, limit: limit + 1 })
      .maxTimeMS(this.options.timeoutMs)
      .toArray();
    return { records: records.slice(0, limit), truncated: records.length > limit };
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}
