import { readThreadProfiles, summarizeProfile } from "./cpu-profile.js";

/*
 * CPU profiles of a bench's server over chosen uploads (write-bench.ts --cpu-prof): each thread's
 * time in those uploads' windows, by area and by function, averaged per upload, so that two
 * servers doing the same uploads (with and without triage) can be compared line by line.
 */

/** An upload's window, in CLOCK_MONOTONIC microseconds (the clock of the server's profiler). */
export interface UploadWindow {
  kind: string;
  fromUs: number;
  toUs: number;
}

/** Now on the profiler's clock. */
export const monotonicUs = (): number => Number(process.hrtime.bigint() / 1000n);

/** Prints, per kind of upload and thread, the average busy time and its largest parts. */
export function printWindowedProfiles(
  label: string,
  dir: string,
  windows: readonly UploadWindow[],
  say: (line: string) => void,
): void {
  const threads = readThreadProfiles(dir);
  for (const kind of new Set(windows.map((w) => w.kind))) {
    const mine = windows.filter((w) => w.kind === kind);
    for (const { thread, profile } of threads) {
      const areas = new Map<string, number>();
      const functions = new Map<string, number>();
      let busy = 0;
      for (const w of mine) {
        const summary = summarizeProfile(profile, w.fromUs, w.toUs);
        if (!summary.windowed) continue;
        busy += summary.busyMs;
        for (const [key, ms] of summary.byArea) areas.set(key, (areas.get(key) ?? 0) + ms);
        for (const [key, ms] of summary.byFunction)
          functions.set(key, (functions.get(key) ?? 0) + ms);
      }
      const per = (ms: number) => `${(ms / mine.length).toFixed(0)} ms`;
      if (busy / mine.length < 20) continue;
      say(`${label}, ${kind}, ${thread}: busy ${per(busy)} an upload`);
      const top = (map: Map<string, number>, n: number) =>
        [...map].sort((a, b) => b[1] - a[1]).slice(0, n);
      for (const [area, ms] of top(areas, 10)) say(`    ${area}: ${per(ms)}`);
      for (const [fn, ms] of top(functions, 12)) say(`      fn ${fn}: ${per(ms)}`);
    }
  }
}
