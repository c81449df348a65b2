import {
  RmsImportReleaseSchema,
  RmsImportRowSchema,
  type RmsImportRelease,
  type RmsImportRow,
} from "@assay/core";
import { CsvError } from "csv-parse";
import { parse } from "csv-parse/sync";
import { badRequest } from "../../errors.js";

/**
 * Reads a requirements file (docs/integrations.md has the column set). CSV: a header row with
 * rms, summary, epic, type, bugs (each bug KEY|summary|status, bugs separated by ';'); header
 * names are case-insensitive and unknown columns are ignored. JSON: an array of objects
 * {rms, summary, epic, type, bugs: [{key, summary, status}]}, or an object {requirements: that
 * array, releases: [{version, releasedAt?, released?, incidents: [{key, summary?, status,
 * closed}]}]} for teams whose release versions and incidents are not in Jira. Every problem is a
 * 400 naming the row (or release) and field, so nothing is imported from a file with a mistake.
 */

export interface RequirementsFile {
  requirements: RmsImportRow[];
  /** null: the file has no releases section (the releases imported before are kept). */
  releases: RmsImportRelease[] | null;
}

export const CSV_COLUMNS = ["rms", "summary", "epic", "type", "bugs"] as const;

function csvBugs(cell: string, line: number) {
  return cell
    .split(";")
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      const [key = "", summary = "", status = ""] = part.split("|").map((s) => s.trim());
      if (!key)
        throw badRequest(`Row ${line}: a bug is written KEY|summary|status, got "${part}".`);
      return { key, summary, status };
    });
}

function csvRecords(content: string): Record<string, unknown>[] {
  let records: Record<string, string>[];
  try {
    records = parse(content, {
      columns: (header: string[]) => header.map((name) => name.trim().toLowerCase()),
      skip_empty_lines: true,
      bom: true,
      trim: true,
    });
  } catch (error) {
    if (error instanceof CsvError) {
      throw badRequest(`The CSV file cannot be read: ${error.message}`);
    }
    throw error;
  }
  return records.map((record, index) => ({
    ...record,
    bugs: csvBugs(record.bugs ?? "", index + 2),
  }));
}

const JSON_SHAPE =
  'The JSON file must be an array of requirements [{"rms": "RMS-1", ...}] or an object {"requirements": [...], "releases": [...]}.';

function jsonRecords(content: string): { records: unknown[]; releases: unknown } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(content);
  } catch {
    throw badRequest("The JSON file is not valid JSON.");
  }
  if (Array.isArray(parsed)) return { records: parsed, releases: undefined };
  if (parsed === null || typeof parsed !== "object") throw badRequest(JSON_SHAPE);
  const { requirements, releases } = parsed as Record<string, unknown>;
  if (!Array.isArray(requirements)) throw badRequest(JSON_SHAPE);
  return { records: requirements, releases };
}

/** The releases section, checked: each problem names the release and the field. */
function readReleases(section: unknown): RmsImportRelease[] | null {
  if (section === undefined) return null;
  if (!Array.isArray(section))
    throw badRequest('releases: must be an array of releases [{"version": "7.2.0", ...}].');
  const seen = new Set<string>();
  return section.map((item, index) => {
    const parsed = RmsImportReleaseSchema.safeParse(item);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = issue?.path.join(".") || "release";
      throw badRequest(`Release ${index + 1}: ${field}: ${issue?.message ?? "invalid"}.`);
    }
    const release = parsed.data;
    if (seen.has(release.version))
      throw badRequest(
        `Release ${index + 1}: version ${release.version} appears twice in the file.`,
      );
    seen.add(release.version);
    const keys = new Set<string>();
    for (const incident of release.incidents) {
      if (keys.has(incident.key))
        throw badRequest(
          `Release ${index + 1} (${release.version}): incident ${incident.key} appears twice.`,
        );
      keys.add(incident.key);
    }
    return release;
  });
}

/** The requirements (and releases) of a file, checked; the extension says CSV or JSON. */
export function readRequirementsFile(fileName: string, content: string): RequirementsFile {
  const isCsv = fileName.toLowerCase().endsWith(".csv");
  if (isCsv) {
    const header = content.replace(/^\uFEFF/, "").split(/\r?\n/, 1)[0] ?? "";
    if (
      !header
        .toLowerCase()
        .split(",")
        .map((c) => c.trim().replace(/^"|"$/g, ""))
        .includes("rms")
    ) {
      throw badRequest(
        `The CSV file needs a header row with the columns ${CSV_COLUMNS.join(", ")} (rms required).`,
      );
    }
  }
  const json = isCsv ? null : jsonRecords(content);
  const records = json ? json.records : csvRecords(content);
  const rows: RmsImportRow[] = [];
  const seen = new Set<string>();
  records.forEach((record, index) => {
    const where = isCsv ? `Row ${index + 2}` : `Item ${index + 1}`;
    const parsed = RmsImportRowSchema.safeParse(record);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = issue?.path.join(".") || "row";
      throw badRequest(`${where}: ${field}: ${issue?.message ?? "invalid"}.`);
    }
    const key = parsed.data.rms.toUpperCase();
    if (seen.has(key)) throw badRequest(`${where}: ${parsed.data.rms} appears twice in the file.`);
    seen.add(key);
    rows.push(parsed.data);
  });
  if (rows.length === 0) throw badRequest("The file has no requirements.");
  return { requirements: rows, releases: readReleases(json?.releases) };
}
