import {
  formatDuration,
  isPendingFailure,
  runWallClockMs,
  type RunFailureGroup,
} from "@assay/core";
import { groupAge, groupFailures, type ReportGroup } from "./report.groups.js";
import type { ReportResult, ReportRun } from "./report.repo.js";
import type { Shot } from "./report.shots.js";

/**
 * A run as one HTML file that opens offline in any browser: no script, no external file. Counts,
 * the failures first by triage's failure groups (report.groups.ts), then every test as a closed <details> with its steps and error; the
 * browser lays out a closed <details>' summary only, and with content-visibility only those on
 * screen (docs/performance.md, "Run report as one file": a 14,000-test file loads in about half
 * the time with it).
 */

const html = (value: string) =>
  value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

type Shown = "passed" | "failed" | "skipped";
const WORD: Record<Shown, string> = {
  passed: "✓ passed",
  failed: "✗ failed",
  // ○, not ⧗: common fonts have no ⧗, which showed as an empty box.
  skipped: "○ skipped",
};

function shownStatus(result: ReportResult): Shown {
  if (result.status === "failed" && isPendingFailure(result.error_message)) return "skipped";
  return result.status;
}

function stepMark(passed: boolean | null): string {
  return passed === true ? "✓" : passed === false ? "✗" : "–";
}

function shotsBlock(shots: Shot[] | undefined): string {
  if (!shots?.length) return "";
  return shots
    .map((shot) =>
      "dataUrl" in shot
        ? `<figure><img src="${shot.dataUrl}" alt="${html(shot.name)}" loading="lazy"><figcaption>${html(shot.name)}</figcaption></figure>`
        : `<p class="left">Screenshot ${html(shot.name)} left out: ${html(shot.leftOut)}. See it in Assay: <a href="${html(shot.link)}">${html(shot.link)}</a></p>`,
    )
    .join("");
}

function testBlock(result: ReportResult, shots?: Shot[]): string {
  const status = shownStatus(result);
  const steps = result.json_steps.length
    ? `<ol>${result.json_steps
        .map(
          (step) =>
            `<li class="s${step.passed === false ? " f" : ""}">${stepMark(step.passed)} ${html(step.action)}</li>`,
        )
        .join("")}</ol>`
    : "";
  const error = result.error_message
    ? `<pre>${html(result.error_message)}${result.error_stack ? `\n\n${html(result.error_stack)}` : ""}</pre>`
    : "";
  return `<details class="${status}"><summary><b>${WORD[status]}</b> ${html(result.name)} <i>${formatDuration(result.duration_ms)}</i></summary>${steps}${error}${shotsBlock(shots)}</details>`;
}

const STYLE = `body{font:14px/1.4 system-ui,Arial,sans-serif;margin:24px;color:#222}
h1{font-size:22px;margin:0 0 4px}.meta{color:#666;margin:0 0 16px}
.counts span{display:inline-block;margin-right:20px}.counts b{font-size:18px}
details{border-bottom:1px solid #eee;padding:3px 0;content-visibility:auto;contain-intrinsic-size:auto 24px}summary{cursor:pointer}
summary i{color:#888;font-style:normal;float:right}
.failed>summary b{color:#c62828}.passed>summary b{color:#2e7d32}.skipped>summary b{color:#757575}
pre{background:#fafafa;border:1px solid #eee;padding:8px;white-space:pre-wrap;overflow-wrap:anywhere}
ol{margin:4px 0}.s.f{color:#c62828}h2{font-size:17px;margin:24px 0 8px}
figure{margin:8px 0}img{max-width:100%;border:1px solid #ddd}figcaption{color:#666;font-size:12px}
.left{color:#8d6e00}
section.g{border:1px solid #e0e0e0;border-radius:4px;padding:8px 12px;margin:0 0 12px}
section.g h3{font-size:15px;margin:0;overflow-wrap:anywhere}.g .n{color:#c62828}
.g p{margin:2px 0 6px;color:#666}.g .new{color:#c62828;font-weight:600}`;

function groupBlock({ group, failures }: ReportGroup, shots: Map<string, Shot[]>): string {
  const tests = failures.map((r) => testBlock(r, shots.get(r.id))).join("\n");
  const count = `<span class="n">${failures.length} failed</span>`;
  if (!group)
    return `<section class="g"><h3>Not grouped</h3><p>${count} · not (yet) grouped by cause</p>${tests}</section>`;
  const cause = group.errorType ? `${group.errorType}: ${group.message}` : group.message;
  const age = `<span class="${group.isNew ? "new" : "known"}">${html(groupAge(group))}</span>`;
  const frame = group.frame ? ` · at ${html(group.frame)}` : "";
  return `<section class="g"><h3>${html(cause)}</h3><p>${count} · ${age}${frame}</p>${tests}</section>`;
}

/**
 * The whole report; `at` is when it was made (shown, UTC); `groups`: the run's failure groups
 * (triage's runFailureGroups). `shots`: each result's screenshots (by result id), shown once: a
 * failed test's under its failure group, any other's under Every test.
 */
export function reportHtml(
  run: ReportRun,
  results: ReportResult[],
  groups: readonly RunFailureGroup[],
  at: Date,
  shots = new Map<string, Shot[]>(),
): string {
  const failed = results.filter((r) => shownStatus(r) === "failed");
  const byCause = groupFailures(failed, groups);
  // The run list's figure: its wall clock, else (a report without times) the tests' time summed.
  const wall = runWallClockMs({
    started_at: run.started_at?.toISOString() ?? null,
    finished_at: run.finished_at?.toISOString() ?? null,
  });
  const [durationLabel, durationMs] =
    wall === null ? ["Tests' time", run.duration_ms] : ["Duration", wall];
  const meta = [
    run.family,
    run.branch && `branch ${run.branch}`,
    run.site && `site ${run.site}`,
    run.started_at && `started ${run.started_at.toISOString().replace("T", " ").slice(0, 19)} UTC`,
  ]
    .filter(Boolean)
    .join(" · ");
  const parts = [
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">`,
    `<title>${html(run.name)} — Assay run report</title><style>${STYLE}</style></head><body>`,
    `<h1>${html(run.name)}</h1><p class="meta">${html(meta)} · run ${html(run.key)}</p>`,
    `<p class="counts"><span>Total <b>${run.total}</b></span><span>✓ Passed <b>${run.passed}</b></span><span>✗ Failed <b>${run.failed}</b></span><span>○ Skipped <b>${run.skipped}</b></span><span>${durationLabel} <b>${formatDuration(durationMs)}</b></span></p>`,
    `<h2>Failures (${failed.length}) by cause (${byCause.filter((g) => g.group).length})</h2>`,
    failed.length
      ? byCause.map((entry) => groupBlock(entry, shots)).join("\n")
      : "<p>No failed tests.</p>",
    `<h2>Every test (${results.length})</h2>`,
    results
      .map((r) => testBlock(r, shownStatus(r) === "failed" ? undefined : shots.get(r.id)))
      .join("\n"),
    `<p class="meta">Made by Assay on ${at.toISOString().replace("T", " ").slice(0, 19)} UTC.</p></body></html>`,
  ];
  return parts.join("\n");
}
