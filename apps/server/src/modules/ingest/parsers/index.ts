import { REPORT_FORMATS, type ReportFormat, type ResultInput } from "@assay/core";
import { AppError } from "../../../errors.js";
import { detectAllure, parseAllureFiles, parseAllureZip } from "./allure.js";
import { detectCtrf, parseCtrf } from "./ctrf.js";
import { detectCucumber, parseCucumber } from "./cucumber.js";
import { detectJunit, parseJunit } from "./junit.js";
import { detectLocust, parseLocust } from "./locust.js";
import { detectMocha, parseMocha } from "./mocha.js";
import { detectPlaywright, parsePlaywright } from "./playwright.js";
import type { LoadReport, ReportFile, ResultParser, UploadFiles } from "./types.js";

type Detector = (head: string, fileName: string) => boolean;

/** Single-file result formats, in the order auto-detection tries them. */
const SINGLE_FILE: readonly { format: ReportFormat; detect: Detector; parse: ResultParser }[] = [
  { format: "junit", detect: detectJunit, parse: parseJunit },
  { format: "cucumber", detect: detectCucumber, parse: parseCucumber },
  { format: "ctrf", detect: detectCtrf, parse: parseCtrf },
  { format: "playwright", detect: detectPlaywright, parse: parsePlaywright },
  { format: "mocha", detect: detectMocha, parse: parseMocha },
];

const REPORT_EXTENSIONS = /\.(xml|json|csv|zip)$/i;
const HEAD_BYTES = 4096;

/** One report's results, and the files its attachment references resolve against. */
export interface ReportStream {
  results: AsyncIterable<ResultInput>;
  files: UploadFiles;
}

export interface UploadPlan {
  formats: ReportFormat[];
  /** One stream per report (an Allure folder counts as one; a zip brings its own files). */
  reports(): AsyncIterable<ReportStream>;
  /** Present for a Locust upload. */
  load?: () => Promise<LoadReport>;
}

async function headOf(file: ReportFile): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  // Leaving the loop early destroys the stream: only the head is read.
  for await (const chunk of file.open()) {
    chunks.push(chunk as Buffer);
    size += (chunk as Buffer).length;
    if (size >= HEAD_BYTES) break;
  }
  return Buffer.concat(chunks).subarray(0, HEAD_BYTES).toString("utf8");
}

function detectFormat(head: string, name: string): ReportFormat | undefined {
  const single = SINGLE_FILE.find((entry) => entry.detect(head, name));
  if (single) return single.format;
  if (detectAllure(head, name)) return "allure";
  return detectLocust(head, name) ? "locust" : undefined;
}

/**
 * Decides which uploaded files are reports and of which format (sniffed from their first bytes
 * for `auto`); every other file is an attachment the reports may refer to.
 */
export async function classifyUpload(
  files: UploadFiles,
  format: "auto" | ReportFormat,
): Promise<UploadPlan> {
  const singles: { file: ReportFile; parse: ResultParser }[] = [];
  const allureZips: ReportFile[] = [];
  let allureFolder = false;
  let locust = false;
  const formats = new Set<ReportFormat>();
  for (const file of files.all()) {
    const head = await headOf(file);
    let found = format === "auto" ? detectFormat(head, file.name) : undefined;
    if (format !== "auto") {
      const entry = SINGLE_FILE.find((e) => e.format === format);
      // Locust's parser picks the stats file among all CSVs and explains what is wrong with it.
      const claims = entry
        ? entry.detect(head, file.name)
        : format === "allure"
          ? detectAllure(head, file.name)
          : file.name.toLowerCase().endsWith(".csv") || detectLocust(head, file.name);
      // With an explicit single-file format, a report-like file is parsed even if it does not
      // look right, so the user hears what is wrong with it rather than "no report found".
      if (claims || (entry && REPORT_EXTENSIONS.test(file.name))) found = format;
    }
    if (!found) continue;
    formats.add(found);
    const single = SINGLE_FILE.find((e) => e.format === found);
    if (single) singles.push({ file, parse: single.parse });
    else if (found === "allure") {
      if (file.name.toLowerCase().endsWith(".zip")) allureZips.push(file);
      else allureFolder = true;
    } else locust = true;
  }
  if (formats.size === 0) {
    const names =
      files
        .all()
        .map((f) => f.name)
        .slice(0, 10)
        .join(", ") || "none";
    throw new AppError(
      400,
      "no_report",
      `No ${format === "auto" ? "test report" : `${format} report`} found among the uploaded files (${names}). ` +
        `Supported formats: ${REPORT_FORMATS.join(", ")}.`,
    );
  }
  return {
    formats: [...formats],
    async *reports() {
      for (const { file, parse } of singles) yield { results: parse(file, files), files };
      for (const zip of allureZips) yield await parseAllureZip(zip);
      if (allureFolder) yield { results: parseAllureFiles(files), files };
    },
    ...(locust && { load: () => parseLocust(files) }),
  };
}
