import { ContainerIndex } from "./allure-containers.js";
import { planAttempts, plannedResults } from "./allure-plan.js";
import { toResultInput } from "./allure-result.js";
import { sourceResolver } from "./allure-steps.js";
import { openZip, ZIP_MAGIC, type ZipLimits } from "./allure-zip.js";
import {
  readHead,
  ReportError,
  type ParsedResult,
  type ReportFile,
  type UploadFiles,
} from "./types.js";

export { openZip, ZIP_LIMITS, type ZipLimits } from "./allure-zip.js";

const RESULT_FILE = /(?:^|\/)[^/]+-result\.json$/i;
const CONTAINER_FILE = /(?:^|\/)[^/]+-container\.json$/i;
/** Names an allure-results folder holds; the first local header of its zip names one of them. */
const ALLURE_ZIP_HEAD =
  /allure|-(?:result|container)\.json|-attachment\.|environment\.properties|categories\.json|executor\.json/i;
const EXPECTED =
  "an Allure results folder (*-result.json files with their *-container.json and attachment files), or a zip of one";

/**
 * True for an Allure 2 `*-result.json` (by name, or by its `uuid` and `historyId` keys), and for a
 * zip whose name or first entry looks like an allure-results folder. The parser verifies.
 */
export function detectAllure(head: string, fileName: string): boolean {
  if (head.startsWith(ZIP_MAGIC))
    return ALLURE_ZIP_HEAD.test(fileName) || ALLURE_ZIP_HEAD.test(head);
  const json = head.replace(/^\uFEFF/, "").trimStart();
  if (!json.startsWith("{")) return false;
  if (RESULT_FILE.test(fileName.replace(/\\/g, "/"))) return true;
  return /"historyId"\s*:/.test(json) && /"uuid"\s*:/.test(json);
}

/**
 * The Allure parser for the ingest layer. Given a zip, it reads the allure-results folder inside
 * it (see {@link openZip}; attachment paths are then paths inside the zip, so open the same zip
 * with openZip to store them, or call {@link parseAllureZip}). Given any other file, it parses
 * the whole upload as a loose results folder: call it once per upload, not once per file.
 */
export async function* parseAllure(
  file: ReportFile,
  files: UploadFiles,
): AsyncGenerator<ParsedResult> {
  if (await isZip(file)) yield* parseAllureFiles(await openZip(file), file.name);
  else yield* parseAllureFiles(files);
}

/**
 * A zipped allure-results folder: the zip's files (to resolve attachment paths) and its results.
 * The results are read lazily, when iterated.
 */
export async function parseAllureZip(
  file: ReportFile,
  limits: Partial<ZipLimits> = {},
): Promise<{ files: UploadFiles; results: AsyncIterable<ParsedResult> }> {
  const files = await openZip(file, limits);
  return { files, results: parseAllureFiles(files, file.name) };
}

/**
 * An allure-results folder uploaded file by file (or the files of a zip): every `*-result.json`
 * is one attempt; results sharing a historyId are retries of one test, numbered 0..n by start
 * time, so the latest decides. Container fixtures become before steps of their children, and
 * attachment `source`s become `path`s of files in the same upload. Result files are read once to
 * order the attempts and kept parsed up to a bound (see {@link planAttempts}); past it they are
 * read again to convert, so memory stays bounded however many results there are.
 * `uploadName` names the upload in the error for an upload without results (e.g. the zip).
 */
export async function* parseAllureFiles(
  files: UploadFiles,
  uploadName?: string,
): AsyncGenerator<ParsedResult> {
  const all = files.all();
  const resultFiles = all.filter((f) => RESULT_FILE.test(f.name));
  if (resultFiles.length === 0) {
    throw new ReportError(
      uploadName ?? all[0]?.name ?? "upload",
      `no *-result.json file found; expected ${EXPECTED}`,
    );
  }
  const has = (name: string) => files.get(name) !== undefined;
  const containers = await ContainerIndex.read(
    all.filter((f) => CONTAINER_FILE.test(f.name)),
    (name) => sourceResolver(name, has),
  );
  for await (const { planned, result } of plannedResults(await planAttempts(resultFiles))) {
    const fileName = planned.file.name;
    yield toResultInput(result, {
      fileName,
      attempt: planned.attempt,
      containers,
      resolve: sourceResolver(fileName, has),
    });
  }
}

async function isZip(file: ReportFile): Promise<boolean> {
  if (/\.zip$/i.test(file.name)) return true;
  return (await readHead(file, ZIP_MAGIC.length)).toString("latin1") === ZIP_MAGIC;
}
