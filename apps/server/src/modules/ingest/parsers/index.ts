import { REPORT_FORMATS, type ReportFormat } from "@assay/core";
import { AppError } from "../../../errors.js";
import { detectAllure, parseAllureFiles, parseAllureZip } from "./allure.js";
import { detectCtrf, parseCtrf } from "./ctrf.js";
import { detectCucumber, parseCucumber } from "./cucumber.js";
import { detectDart, parseDart } from "./dart.js";
import { detectGoTest, parseGoTest } from "./gotest.js";
import { detectNunit, parseNunit } from "./nunit.js";
import { detectTestng, parseTestng } from "./testng.js";
import { detectTrx, parseTrx } from "./trx.js";
import { detectXunit, parseXunit } from "./xunit.js";
import { detectJunit, parseJunit, xmlWithDoctype } from "./junit.js";
import { detectLocust, parseLocust } from "./locust.js";
import { detectMocha, parseMocha } from "./mocha.js";
import { detectPlaywright, parsePlaywright } from "./playwright.js";
import { detectRspec, parseRspec } from "./rspec.js";
import {
  readHead,
  readInOrder,
  READ_AHEAD,
  type LoadReport,
  type ParseOptions,
  type ParsedResult,
  type ReportFile,
  type ResultParser,
  type UploadFiles,
} from "./types.js";

type Detector = (head: string, fileName: string) => boolean;

/**
 * Single-file result formats, in the order auto-detection tries them. A new format is a parser
 * module (detect + parse), a line here, its name in core's REPORT_FORMATS and its fixtures.
 */
const SINGLE_FILE: readonly { format: ReportFormat; detect: Detector; parse: ResultParser }[] = [
  { format: "junit", detect: detectJunit, parse: parseJunit },
  { format: "cucumber", detect: detectCucumber, parse: parseCucumber },
  { format: "ctrf", detect: detectCtrf, parse: parseCtrf },
  { format: "playwright", detect: detectPlaywright, parse: parsePlaywright },
  { format: "mocha", detect: detectMocha, parse: parseMocha },
  { format: "gotest", detect: detectGoTest, parse: parseGoTest },
  { format: "trx", detect: detectTrx, parse: parseTrx },
  { format: "nunit", detect: detectNunit, parse: parseNunit },
  { format: "xunit", detect: detectXunit, parse: parseXunit },
  { format: "testng", detect: detectTestng, parse: parseTestng },
  { format: "rspec", detect: detectRspec, parse: parseRspec },
  { format: "dart", detect: detectDart, parse: parseDart },
];

const REPORT_EXTENSIONS = /\.(xml|json|csv|zip|trx)$/i;
const HEAD_BYTES = 4096;
/** Only heads are read, so the count alone bounds the memory in flight. */
const HEADS_AHEAD = { ...READ_AHEAD, bytes: Number.POSITIVE_INFINITY };

/** One report's results, and the files its attachment references resolve against. */
export interface ReportStream {
  results: AsyncIterable<ParsedResult>;
  files: UploadFiles;
}

export interface UploadPlan {
  formats: ReportFormat[];
  /**
   * One stream per report (an Allure folder counts as one; a zip brings its own files). What the
   * reports say that was stored otherwise than written goes to `options.warn` as they are read.
   */
  reports(options?: ParseOptions): AsyncIterable<ReportStream>;
  /** Present for a Locust upload. */
  load?: () => Promise<LoadReport>;
}

async function headOf(file: ReportFile): Promise<{ file: ReportFile; head: string }> {
  return { file, head: (await readHead(file, HEAD_BYTES)).toString("utf8") };
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
  const refusedXml: string[] = [];
  // Heads are read a few files at a time, in order: an upload can hold tens of thousands.
  for await (const { file, head } of readInOrder(files.all(), headOf, HEADS_AHEAD)) {
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
    if (!found) {
      if (xmlWithDoctype(head, file.name)) refusedXml.push(file.name);
      continue;
    }
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
        (refusedXml.length > 0
          ? `${refusedXml.slice(0, 3).join(", ")} starts with a DOCTYPE, which Assay refuses in XML (entities and DTDs are never read): remove it. `
          : "") +
        `Supported formats: ${REPORT_FORMATS.join(", ")}.`,
    );
  }
  return {
    formats: [...formats],
    async *reports(options) {
      for (const { file, parse } of singles) yield { results: parse(file, files, options), files };
      for (const zip of allureZips) yield await parseAllureZip(zip);
      if (allureFolder) yield { results: parseAllureFiles(files), files };
    },
    ...(locust && { load: () => parseLocust(files) }),
  };
}
