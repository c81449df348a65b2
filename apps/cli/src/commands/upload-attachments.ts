import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import type { FileOnDisk } from "@assay/server/multipart-body";

/**
 * The files a Playwright or CTRF JSON report refers to by path (screenshots, traces, videos),
 * found on this machine, so `assay upload report.json` sends them without their folder being
 * named too. The server matches a reference by its trailing segments (resolveUploadPath), so
 * each file goes under the last segments of the path the report wrote. Cucumber JSON embeds
 * its attachments (base64 `embeddings`) and needs nothing more.
 */

export interface NamedFile extends FileOnDisk {
  name: string;
}

/** JSON reports larger than this are not read here (the upload still sends them). */
const MAX_SCANNED_BYTES = 256 * 1024 * 1024;
/** Segments of the reference kept in the uploaded name: enough to keep two tests' apart. */
const NAME_SEGMENTS = 6;

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

function attachmentPaths(attachments: unknown): string[] {
  return list(attachments).flatMap((a) =>
    isObject(a) && typeof a.path === "string" && a.path !== "" ? [a.path] : [],
  );
}

/** Playwright's JSON reporter: suites (nested) › specs › tests › results › attachments. */
function playwrightPaths(suites: unknown): string[] {
  return list(suites).flatMap((suite) => {
    if (!isObject(suite)) return [];
    const own = list(suite.specs).flatMap((spec) =>
      isObject(spec)
        ? list(spec.tests).flatMap((test) =>
            isObject(test)
              ? list(test.results).flatMap((r) =>
                  isObject(r) ? attachmentPaths(r.attachments) : [],
                )
              : [],
          )
        : [],
    );
    return [...own, ...playwrightPaths(suite.suites)];
  });
}

/** CTRF: results › tests, each with attachments and its earlier attempts' (retryAttempts). */
function ctrfPaths(results: Json): string[] {
  return list(results.tests).flatMap((test) =>
    isObject(test)
      ? [
          ...attachmentPaths(test.attachments),
          ...list(test.retryAttempts).flatMap((a) =>
            isObject(a) ? attachmentPaths(a.attachments) : [],
          ),
        ]
      : [],
  );
}

/** The attachment paths a report's JSON refers to; none when it is neither format. */
export function referencedPaths(report: unknown): string[] {
  if (!isObject(report)) return [];
  if (Array.isArray(report.suites) && isObject(report.config))
    return playwrightPaths(report.suites);
  if (isObject(report.results) && Array.isArray(report.results.tests))
    return ctrfPaths(report.results);
  return [];
}

/** The name a referenced file is sent under: the trailing segments of the reference. */
export function uploadName(reference: string): string {
  const segments = reference
    .replace(/\\/g, "/")
    .split("/")
    .filter((s) => s !== "" && !/^[A-Za-z]:$/.test(s));
  return segments.slice(-NAME_SEGMENTS).join("/");
}

/**
 * The files the JSON reports among `files` refer to that exist here (a relative reference is
 * read from the report's folder) and are not sent already, each once.
 */
export function referencedFiles(files: readonly NamedFile[]): NamedFile[] {
  const sending = new Set(files.map((f) => path.resolve(f.path)));
  const names = new Set(files.map((f) => f.name));
  const found: NamedFile[] = [];
  for (const report of files) {
    if (!report.name.toLowerCase().endsWith(".json") || report.size > MAX_SCANNED_BYTES) continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(report.path, "utf8"));
    } catch {
      continue; // not JSON after all: the server says what is wrong with it
    }
    for (const reference of referencedPaths(parsed)) {
      const segments = reference.replace(/\\/g, "/").split("/");
      // A reference climbing out of its folder is not followed.
      if (segments.includes("..")) continue;
      const full = path.resolve(path.dirname(report.path), reference);
      const stat = statSync(full, { throwIfNoEntry: false });
      const name = uploadName(reference);
      if (!stat?.isFile() || sending.has(full) || names.has(name)) continue;
      sending.add(full);
      names.add(name);
      found.push({ name, path: full, size: stat.size });
    }
  }
  return found;
}
