import { count, ms, say, table } from "../bench/output.js";

/** What one route's readers saw during a scenario. */
export interface RouteSample {
  route: string;
  /** Latencies of the 2xx answers, in ms. */
  latencies: number[];
  /** Answers that were not 2xx, refused or dropped connections, and time-outs. */
  errors: number;
  /** Status codes of the answers that were not 2xx, with how many of each. */
  statuses: Record<string, number>;
}

/** The nearest-rank percentile `q` (0-1) of the values, NaN when there are none. */
export function percentile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)]!;
}

export interface Verdict {
  pass: boolean;
  /** The rows: PASS/FAIL per route and for all reads. */
  lines: string[];
}

/**
 * The scenario's table: requests, rate, p50 / p95 / p99 and errors per route, and for all reads
 * together. A route passes with no error and a p99 under the target.
 */
export function readersTable(
  samples: readonly RouteSample[],
  seconds: number,
  targetP99Ms: number,
): Verdict {
  const rowOf = (s: RouteSample): { cells: string[]; pass: boolean } => {
    const p99 = percentile(s.latencies, 0.99);
    const pass = s.errors === 0 && s.latencies.length > 0 && p99 < targetP99Ms;
    const fmt = (v: number) => (Number.isNaN(v) ? "n/a" : ms(v));
    return {
      pass,
      cells: [
        s.route,
        count(s.latencies.length + s.errors),
        (s.latencies.length / seconds).toFixed(1),
        fmt(percentile(s.latencies, 0.5)),
        fmt(percentile(s.latencies, 0.95)),
        fmt(p99),
        count(s.errors),
        pass ? "PASS" : "FAIL",
      ],
    };
  };
  const rows = samples.map(rowOf);
  const all = rowOf({
    route: "all reads",
    latencies: samples.flatMap((s) => s.latencies),
    errors: samples.reduce((sum, s) => sum + s.errors, 0),
    statuses: {},
  });
  const header = [
    "route",
    "requests",
    "req/s",
    "p50",
    "p95",
    "p99",
    "errors",
    `p99 < ${targetP99Ms} ms`,
  ];
  const lines = table(header, [...rows.map((r) => r.cells), all.cells]);
  for (const s of samples) {
    const codes = Object.entries(s.statuses).map(([code, n]) => `${code} x${n}`);
    if (codes.length > 0) lines.push(`  ${s.route}: ${codes.join(", ")}`);
  }
  return { pass: rows.every((r) => r.pass) && all.pass, lines };
}

export function printLines(lines: readonly string[]): void {
  for (const line of lines) say(line);
}
