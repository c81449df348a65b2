import { createReadStream, readFileSync, statSync } from "node:fs";
import { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import type { ReportFile, UploadFiles } from "./types.js";

/** apps/server/test/fixtures/, from src/ and from dist/ alike (both sit at the same depth). */
export const FIXTURES_DIR = fileURLToPath(new URL("../../../../test/fixtures/", import.meta.url));

/** A fixture as the ingest route would hand it over: `name` is the path under the format's folder. */
export function fixtureFile(format: string, name: string): ReportFile {
  const path = `${FIXTURES_DIR}${format}/${name}`;
  return { name, size: statSync(path).size, open: () => createReadStream(path) };
}

/** The text of a fixture, to derive a broken variant from a real report. */
export function fixtureText(format: string, name: string): string {
  return readFileSync(`${FIXTURES_DIR}${format}/${name}`, "utf8");
}

/** An in-memory upload file, for malformed and hostile inputs. */
export function textFile(name: string, content: string | Buffer): ReportFile {
  const bytes = typeof content === "string" ? Buffer.from(content, "utf8") : content;
  return { name, size: bytes.length, open: () => Readable.from([bytes]) };
}

/**
 * An in-memory file whose `rest` is read only once `release()` is called: a parser that yields
 * a result before then reads the file as it streams in.
 */
export function heldFile(name: string, head: string, rest: string) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const file: ReportFile = {
    name,
    size: head.length + rest.length,
    open: () =>
      Readable.from(
        (async function* () {
          yield Buffer.from(head);
          await released;
          yield Buffer.from(rest);
        })(),
      ),
  };
  return { file, release };
}

/** All files of one upload, looked up by name as the ingest route does. */
export function uploadOf(...files: ReportFile[]): UploadFiles {
  const byName = new Map(files.map((f) => [f.name, f]));
  return { get: (name) => byName.get(name), all: () => files };
}
