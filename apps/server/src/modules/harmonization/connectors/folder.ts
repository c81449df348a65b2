import { createReadStream } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import path from "node:path";
import {
  ConnectorError,
  type Connector,
  type DocumentInfo,
  type RecordsRead,
} from "./connector.js";
import { countNdjsonLines, readNdjsonRecords } from "./ndjson.js";

/**
 * NDJSON files in a folder, read like an S3 prefix: the demo's stand-in for the FHIR and SFDC
 * buckets, kept in Assay's local object store. Keys are '/'-separated paths under the folder.
 */
export class FolderConnector implements Connector {
  readonly where: string;

  constructor(private readonly root: string) {
    this.where = path.basename(root);
  }

  private file(key: string): string {
    const file = path.resolve(this.root, key);
    if (!file.startsWith(this.root + path.sep))
      throw new ConnectorError(`The key ${JSON.stringify(key)} is outside the folder.`);
    return file;
  }

  async listDocuments(prefix: string): Promise<DocumentInfo[]> {
    let entries: string[];
    try {
      entries = await readdir(this.root, { recursive: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT")
        throw new ConnectorError(`The folder ${this.where} does not exist.`);
      throw error;
    }
    const documents: DocumentInfo[] = [];
    for (const entry of entries.sort()) {
      const key = entry.split(path.sep).join("/");
      // Hidden files are the local object store's metadata and half-written uploads.
      if (!key.startsWith(prefix) || key.split("/").some((part) => part.startsWith("."))) continue;
      const info = await stat(path.join(this.root, entry));
      if (info.isFile()) documents.push({ key, size: info.size, lastModified: info.mtime });
    }
    return documents;
  }

  async countDocument(key: string): Promise<number> {
    return countNdjsonLines(createReadStream(this.file(key), { highWaterMark: 1 << 20 }));
  }

  async count(prefix: string): Promise<number> {
    let total = 0;
    for (const document of await this.listDocuments(prefix))
      total += await this.countDocument(document.key);
    return total;
  }

  async readRecords(key: string, _query: unknown, limit: number): Promise<RecordsRead> {
    return readNdjsonRecords(createReadStream(this.file(key)), limit);
  }

  async close(): Promise<void> {}
}
