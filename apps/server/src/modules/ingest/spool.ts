import { createHash, randomUUID } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Transform, type Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReportFile, UploadFiles } from "./parsers/types.js";

/** A spooled upload file: readable any number of times, with the hash of its content. */
export interface SpooledFile extends ReportFile {
  sha256: string;
}

/**
 * The client's file name as a relative path for matching references ("screenshots/a.png"):
 * backslashes, drive letters, leading slashes and "." / ".." segments are dropped. It is never
 * used as a path on disk: spooled files get random names.
 */
export function uploadName(clientName: string): string {
  const parts = clientName
    .replace(/\\/g, "/")
    .replace(/^[a-zA-Z]:/, "")
    .split("/")
    .filter((part) => part !== "" && part !== "." && part !== "..");
  return parts.join("/") || "upload";
}

/** The files of one upload, spooled to a private temporary folder that `dispose` removes. */
export class Spool implements UploadFiles {
  private readonly files: SpooledFile[] = [];
  private readonly byName = new Map<string, SpooledFile>();

  private constructor(private readonly dir: string) {}

  static async create(): Promise<Spool> {
    return new Spool(await mkdtemp(path.join(tmpdir(), "assay-upload-")));
  }

  /** Streams one file to disk, hashing it on the way. */
  async add(clientName: string, content: Readable): Promise<SpooledFile> {
    const file = path.join(this.dir, randomUUID());
    const hash = createHash("sha256");
    let size = 0;
    const measure = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        hash.update(chunk);
        size += chunk.length;
        done(null, chunk);
      },
    });
    await pipeline(content, measure, createWriteStream(file, { mode: 0o600 }));
    const name = this.uniqueName(uploadName(clientName));
    const spooled: SpooledFile = {
      name,
      size,
      sha256: hash.digest("hex"),
      open: () => createReadStream(file),
    };
    this.files.push(spooled);
    this.byName.set(name, spooled);
    return spooled;
  }

  get(name: string): SpooledFile | undefined {
    return this.byName.get(name);
  }

  all(): readonly SpooledFile[] {
    return this.files;
  }

  async dispose(): Promise<void> {
    await rm(this.dir, { recursive: true, force: true });
  }

  private uniqueName(name: string): string {
    if (!this.byName.has(name)) return name;
    for (let n = 2; ; n++) {
      const candidate = `${name} (${n})`;
      if (!this.byName.has(candidate)) return candidate;
    }
  }
}
