import { byteSize as bytes } from "@assay/core";
import { hostname } from "node:os";
import { parseArgs } from "node:util";
import {
  createLogger,
  createObjectStore,
  estimateRetention,
  loadConfig,
  retentionDeps,
  runRetentionPass,
  withDatabase,
  type PassOutcome,
  type RetentionEstimate,
} from "@assay/server";
import { KnownError } from "../errors.js";

export const retentionUsage = `Usage: assay retention --dry-run
       assay retention --yes

Applies the retention policy of assay.config.yaml (its retention: key) now, as the nightly pass
does: results, steps, attachments and whole runs past their periods are removed, after their
counts are kept per day for the Dashboard, Top Fails and Test History.

  --dry-run   say what would go and how much disk and object storage it would return; remove nothing
  --yes       remove it (what is removed cannot be brought back: run --dry-run first)

Examples:
  npx assay retention --dry-run
  npx assay retention --yes`;

const options = {
  "dry-run": { type: "boolean" },
  yes: { type: "boolean" },
} as const;

const count = (n: number) => n.toLocaleString("en-US");

export function estimateText(e: RetentionEstimate): string {
  const lines = [
    `Would remove ${count(e.runs)} whole run(s) and ${count(e.results)} result(s), empty the steps of ${count(e.stepsTrimmed)} result(s) and delete ${count(e.attachments)} attachment(s).`,
    `  runs keeping only their failures: ${count(e.plan.passedResultRuns.length)}`,
    `  whole monthly partitions dropped: ${e.partitions.length ? e.partitions.map((p) => `${p.name} (${bytes(p.bytes)})`).join(", ") : "none"}`,
    `Database: about ${bytes(e.databaseBytes)} returned of ${bytes(e.databaseSize)} (tables and indexes; partitions dropped return their space at once, rows deleted leave space PostgreSQL reuses).`,
    `Object storage: ${bytes(e.objectBytes)} returned.`,
  ];
  return lines.join("\n");
}

export function outcomeText(o: PassOutcome): string {
  const t = o.totals;
  const head =
    o.state === "finished"
      ? "Retention pass finished."
      : `Retention pass failed: ${o.message ?? "unknown error"} (what it removed before stays removed; run it again).`;
  return [
    head,
    `Removed ${count(t.runs)} whole run(s), ${count(t.results)} result(s), the steps of ${count(t.stepsTrimmed)} result(s), ${count(t.attachments)} attachment(s); partitions dropped: ${t.partitions.join(", ") || "none"}.`,
    `Database: about ${bytes(o.bytesFreed)} freed (${bytes(o.databaseBytesBefore)} before, ${o.databaseBytesAfter === null ? "unknown" : bytes(o.databaseBytesAfter)} after). Object storage: ${bytes(o.objectBytesFreed)} freed.`,
  ].join("\n");
}

export async function retention(argv: string[]): Promise<void> {
  const { values } = parseArgs({ args: argv, options, strict: true });
  if (values["dry-run"] && values.yes)
    throw new KnownError("choose one: --dry-run to see what would go, or --yes to remove it.");
  if (!values["dry-run"] && !values.yes)
    throw new KnownError(
      "retention removes results for good: run `assay retention --dry-run` to see what would go, then `assay retention --yes` to remove it.",
    );
  const config = loadConfig();
  if (!config.retention)
    throw new KnownError(
      `${config.configPath} has no retention: key, so nothing is ever removed; add one (docs/configuration.md, "retention").`,
    );
  const log = createLogger("warn");
  await withDatabase(config, log, async (db) => {
    if (values["dry-run"]) {
      console.log(estimateText(await estimateRetention(db, config.retention)));
      return;
    }
    const objects = await createObjectStore(config, log);
    const deps = retentionDeps({ db, objects, policy: config.retention }, log);
    const outcome = await runRetentionPass(deps, `cli:${hostname()}:${process.pid}`, "cli");
    if (outcome === null)
      throw new KnownError(
        "another retention pass is running (a server's nightly pass); try again when it has ended.",
      );
    console.log(outcomeText(outcome));
    if (outcome.state === "failed") process.exitCode = 1;
  });
}
