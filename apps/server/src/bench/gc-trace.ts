import { readFileSync } from "node:fs";

/*
 * What `node --trace-gc` printed: how big the V8 heap got before a collection and how much was
 * still alive after a full one. Tells whether a high RSS is data the server holds or garbage
 * the collector had not reclaimed yet.
 */

export interface GcSummary {
  /** Which V8 isolate: the main thread's (the first to print), then the workers'. */
  thread: string;
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
  /^\[\d+:(0x[0-9a-f]+)\].*?(Scavenge|Mark-Compact|Mark-sweep)[^\d]*?([\d.]+) \(([\d.]+)\) -> ([\d.]+) \(([\d.]+)\) MB, (?:pooled: [\d.]+ MB, )?([\d.]+)/;

/** One summary per isolate (thread), in the order they first collected. */
export function readGcTrace(logFile: string): GcSummary[] {
  const byIsolate = new Map<string, GcSummary>();
  for (const line of readFileSync(logFile, "utf8").split("\n")) {
    const m = LINE.exec(line);
    if (!m) continue;
    const [, isolate, kind, before, committedBefore, after, committedAfter, pause] = m;
    let summary = byIsolate.get(isolate!);
    if (!summary) {
      const thread = byIsolate.size === 0 ? "main thread" : `worker thread ${byIsolate.size}`;
      summary = {
        thread,
        scavenges: 0,
        fullGcs: 0,
        maxBeforeMb: 0,
        maxLiveMb: 0,
        maxCommittedMb: 0,
        pauseMs: 0,
      };
      byIsolate.set(isolate!, summary);
    }
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
  return [...byIsolate.values()];
}
