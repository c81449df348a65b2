import { performance } from "node:perf_hooks";

/*
 * The bench talks to a person at a terminal. Server code logs through pino and lints against
 * console, so lines are written to stdout directly here.
 */

const started = performance.now();

/** One line of the report. */
export function say(line = ""): void {
  process.stdout.write(`${line}\n`);
}

/** A progress line, prefixed with the time since the bench started. */
export function step(line: string): void {
  const seconds = (performance.now() - started) / 1000;
  say(`[${seconds.toFixed(1).padStart(6)} s] ${line}`);
}

export const ms = (value: number): string =>
  value >= 100 ? `${Math.round(value)} ms` : `${value.toFixed(1)} ms`;

export const seconds = (valueMs: number): string => `${(valueMs / 1000).toFixed(2)} s`;

export const count = (value: number): string => Math.round(value).toLocaleString("en-US");

export const mib = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

export const rate = (items: number, valueMs: number): number => (items * 1000) / valueMs;

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return Number.NaN;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Rows of cells as an aligned text table; numbers (and "n/a") right-aligned. */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const numeric = (cell: string) => /^[\d.,\s×%-]+(ms|s|MB|\/s)?$|^n\/a$/.test(cell);
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, i) => (numeric(cell) ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!)))
      .join("  ")
      .trimEnd();
  return [line(header), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)];
}

/** Wall times (ms) of `calls` calls of `fn`, after `warmups` calls left untimed (JIT, caches). */
export async function callTimes(
  calls: number,
  fn: () => Promise<unknown>,
  warmups = 0,
): Promise<number[]> {
  for (let i = 0; i < warmups; i++) await fn();
  const times: number[] = [];
  for (let i = 0; i < calls; i++) {
    const started = performance.now();
    await fn();
    times.push(performance.now() - started);
  }
  return times;
}
