import { Rng } from "./prng.js";
import type { PlannedRun } from "./demo-run-types.js";
import type { ReportFilePart } from "./demo-junit.js";

/*
 * A load run as `locust --csv run --html report.html` leaves it: the stats CSV (one row per
 * endpoint, then Aggregated) and a small HTML report. Only the stats CSV is read by Assay.
 */

const HEADER = [
  "Type",
  "Name",
  "Request Count",
  "Failure Count",
  "Median Response Time",
  "Average Response Time",
  "Min Response Time",
  "Max Response Time",
  "Average Content Size",
  "Requests/s",
  "Failures/s",
  "50%",
  "66%",
  "75%",
  "80%",
  "90%",
  "95%",
  "98%",
  "99%",
  "99.9%",
  "99.99%",
  "100%",
];
const PERCENTILE_FACTORS = [1, 1.2, 1.4, 1.6, 2.1, 2.8, 3.6, 4.4, 6.5, 8, 9];

interface Row {
  method: string;
  name: string;
  requests: number;
  failures: number;
  median: number;
  average: number;
  min: number;
  max: number;
  size: number;
}

function csvLine(row: Row, seconds: number): string {
  const percentiles = PERCENTILE_FACTORS.map((f) => Math.round(row.median * f));
  return [
    row.method,
    row.name,
    row.requests,
    row.failures,
    Math.round(row.median),
    row.average.toFixed(3),
    row.min.toFixed(3),
    row.max.toFixed(3),
    row.size.toFixed(1),
    (row.requests / seconds).toFixed(6),
    (row.failures / seconds).toFixed(6),
    ...percentiles,
  ].join(",");
}

/** The stats CSV and HTML report of a planned load run. */
export function locustFiles(run: PlannedRun): ReportFilePart[] {
  const load = run.load;
  if (!load) throw new Error(`run ${run.key} is not a load run`);
  const rng = Rng.for("locust", run.key);
  const seconds = load.durationSeconds;
  const rows: Row[] = load.profile.endpoints.map(([method, name, medianMs]) => {
    const median = medianMs * load.slowdown * (0.85 + rng.float() * 0.3);
    const requests = Math.round(load.users * seconds * (0.05 + rng.float() * 0.1));
    return {
      method,
      name,
      requests,
      failures: Math.round(requests * load.failureRate * (0.5 + rng.float())),
      median,
      average: median * (1.1 + rng.float() * 0.3),
      min: median * (0.2 + rng.float() * 0.2),
      max: median * (6 + rng.float() * 6),
      size: 200 + rng.int(0, 4000),
    };
  });
  const requests = rows.reduce((sum, r) => sum + r.requests, 0);
  const aggregated: Row = {
    method: "",
    name: "Aggregated",
    requests,
    failures: rows.reduce((sum, r) => sum + r.failures, 0),
    median: rows.reduce((sum, r) => sum + r.median * r.requests, 0) / requests,
    average: rows.reduce((sum, r) => sum + r.average * r.requests, 0) / requests,
    min: Math.min(...rows.map((r) => r.min)),
    max: Math.max(...rows.map((r) => r.max)),
    size: rows.reduce((sum, r) => sum + r.size * r.requests, 0) / requests,
  };
  const csv = [HEADER.join(","), ...[...rows, aggregated].map((r) => csvLine(r, seconds))].join(
    "\n",
  );
  const table = [...rows, aggregated]
    .map(
      (r) =>
        `<tr><td>${r.method}</td><td>${r.name}</td><td>${r.requests}</td><td>${r.failures}</td>` +
        `<td>${Math.round(r.median)}</td><td>${(r.requests / seconds).toFixed(1)}</td></tr>`,
    )
    .join("\n");
  const html = `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>Test Report for ${load.profile.testFile}</title></head>
<body>
<h1>Locust Test Report</h1>
<p>During: ${run.start.toISOString()} - ${run.end.toISOString()}</p>
<p>Target Host: ${load.profile.host} · Users: ${load.users} · Spawn rate: ${load.spawnRate}/s</p>
<table>
<tr><th>Type</th><th>Name</th><th># Requests</th><th># Fails</th><th>Median (ms)</th><th>RPS</th></tr>
${table}
</table>
</body></html>
`;
  return [
    { name: "run_stats.csv", content: `${csv}\n` },
    { name: "report.html", content: html },
  ];
}
