import { readFileSync } from "node:fs";

/*
 * What `node --trace-gc` printed: how big the V8 heap got before a collection and how much was
 * still alive after a full one. Tells whether a high RSS is data the server holds or garbage
 * the collector had not reclaimed yet.
 */

export interface GcSummary {
  scavenges: number;
  fullGcs: number;
  /** Largest heap in use before any collection, MB. */
  maxBeforeMb: number;
  /** Largest heap still in use after a full (mark-compact) collection, MB. */
  maxLiveMb: number;
  /** Largest committed heap, MB. */
  maxCommittedMb: number;
  pauseMs: number;
}

const LINE =
  /(Scavenge|Mark-Compact|Mark-sweep)[^\d]*?([\d.]+) \(([\d.]+)\) -> ([\d.]+) \(([\d.]+)\) MB, (?:pooled: [\d.]+ MB, )?([\d.]+)/;

export function readGcTrace(logFile: string): GcSummary {
  const summary: GcSummary = {
    scavenges: 0,
    fullGcs: 0,
    maxBeforeMb: 0,
    maxLiveMb: 0,
    maxCommittedMb: 0,
    pauseMs: 0,
  };
  for (const line of readFileSync(logFile, "utf8").split("\n")) {
    const m = LINE.exec(line);
    if (!m) continue;
    const [, kind, before, committedBefore, after, committedAfter, pause] = m;
    if (kind === "Scavenge") summary.scavenges++;
    else {
      summary.fullGcs++;
      summary.maxLiveMb = Math.max(summary.maxLiveMb, Number(after));
    }
    summary.maxBeforeMb = Math.max(summary.maxBeforeMb, Number(before));
    summary.maxCommittedMb = Math.max(
      summary.maxCommittedMb,
      Number(committedBefore),
      Number(committedAfter),
    );
    summary.pauseMs += Number(pause);
  }
  return summary;
}
