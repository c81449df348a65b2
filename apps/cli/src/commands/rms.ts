import { readFile } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { parseArgs } from "node:util";
import { RMS_IMPORT_MAX_CHARS, RmsImportResultSchema, type RmsImportResult } from "@assay/core";
import { answerBody, sendStream, serverTarget } from "../client.js";
import { KnownError } from "../errors.js";

export const rmsUsage = `Usage: assay rms import FILE [--dry-run] [--server URL] [--token TOKEN]

Imports requirements (RMS items) for the Traceability Matrix from a CSV or JSON file, for teams
without Jira. The file replaces the previous import: requirements not in it are archived, not
deleted (their notes, No Automation flags, links and edit history come back when a later import
names them again); the notes and flags of the others are kept. A file with any bad row changes
nothing. --dry-run changes nothing and prints what the import would do.

CSV: a header row with the columns rms (required), summary, epic, type, bugs. A bug is written
KEY|summary|status; several bugs are separated by ';'.
JSON: an array of {"rms", "summary", "epic", "type", "bugs": [{"key", "summary", "status"}]},
or {"requirements": [that array], "releases": [{"version", "releasedAt", "released",
"incidents": [{"key", "summary", "status", "closed"}]}]}: the releases feed the Nora Releases
report when Jira is not configured (docs/integrations.md).
Tests cover a requirement by a tag naming it, e.g. @RMS-123 (catalog.rmsTagPattern).

Options:
  --dry-run        print what the import would add, change, archive and restore; change nothing
  --server URL     Assay server (default: $ASSAY_URL or http://localhost:8080)
  --token TOKEN    service token with the ingest scope (default: $ASSAY_TOKEN)

Examples:
  npx assay rms import requirements.csv
  npx assay rms import requirements.csv --dry-run
  ASSAY_TOKEN=assay_... npx assay rms import rms-export.json --server https://assay.example.com`;

const options = {
  "dry-run": { type: "boolean" },
  server: { type: "string" },
  token: { type: "string" },
} as const;

export async function rms(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({ args: argv, options, allowPositionals: true });
  const [action, file, ...extra] = positionals;
  if (action !== "import" || !file || extra.length > 0) {
    throw new KnownError(`give "import" and one file.\n\n${rmsUsage}`);
  }
  const fileName = path.basename(file);
  if (!/\.(csv|json)$/i.test(fileName)) {
    throw new KnownError(`the file must end in .csv or .json, got "${fileName}".`);
  }
  let content: string;
  try {
    content = await readFile(file, "utf8");
  } catch {
    throw new KnownError(`cannot read ${file}: no such file, or not readable.`);
  }
  if (content.length > RMS_IMPORT_MAX_CHARS) {
    throw new KnownError(`${file} is larger than ${RMS_IMPORT_MAX_CHARS} characters.`);
  }
  const target = serverTarget(values.server, values.token);
  const dryRun = values["dry-run"] === true;
  const body = Buffer.from(JSON.stringify({ fileName, content, dry_run: dryRun }));
  const answer = await sendStream(target, "/v1/traceability/rms/import", Readable.from([body]), {
    "content-type": "application/json",
    "content-length": body.length,
  });
  const result = answerBody(target, answer, RmsImportResultSchema, "an import");
  console.log(importSummary(result));
}

/** What an import did (or, dry run, would do), the archived ones with their notes. */
export function importSummary(result: RmsImportResult): string {
  const { preview } = result;
  const lines = [
    result.dryRun
      ? `Dry run: nothing changed. Importing ${result.fileName} would:`
      : `Imported ${result.requirements} requirements with ${result.bugs} linked bugs from ${result.fileName}${result.releases !== undefined ? `; ${result.releases} releases` : ""}:`,
    `  added ${preview.added.count}, changed ${preview.changed.count}, unchanged ${preview.unchanged}, restored ${preview.restored.count}, archived ${preview.archived.count}`,
  ];
  for (const item of preview.archived.items) {
    const kept = [item.note && `note "${item.note}"`, item.noTestNeeded && "No Automation"]
      .filter(Boolean)
      .join(", ");
    lines.push(`  archived ${item.rms}${kept ? ` (keeps ${kept})` : ""}`);
  }
  if (preview.archived.count > preview.archived.items.length)
    lines.push(`  …and ${preview.archived.count - preview.archived.items.length} more archived`);
  for (const item of preview.restored.items) lines.push(`  restored ${item.rms}`);
  return lines.join("\n");
}
