import type { ResultInput, RunMetadataInput } from "@assay/core";
import { cucumberReport } from "./demo-cucumber.js";
import { junitReport, type ReportFilePart } from "./demo-junit.js";
import { liveResults } from "./demo-live.js";
import { locustFiles } from "./demo-locust.js";
import type { PlannedRun } from "./demo-run-types.js";

/**
 * What a CI job would send for a planned run: report files with the run's metadata for
 * POST /v1/ingest/reports, or, for a live reporter, the run to open and its results.
 */
export type DemoUpload =
  | { kind: "files"; fields: Record<string, string>; files: ReportFilePart[] }
  | { kind: "live"; open: RunMetadataInput & { run_key: string }; results: ResultInput[] };

/** The run's metadata as upload fields (text) and as the live API's JSON. */
function metadata(run: PlannedRun): RunMetadataInput & { run_key: string } {
  const meta: RunMetadataInput & { run_key: string } = {
    run_key: run.key,
    family: run.family,
    test_run_name: run.name,
    executor: run.executor,
    branch: run.branch,
    commit: run.commit,
    is_china_region: run.chinaRegion,
  };
  if (run.site) meta.nora_site = run.site;
  if (run.env) meta.env = run.env;
  if (run.baseurl) meta.baseurl = run.baseurl;
  if (run.family === "frontend") meta.is_next_gen = run.suite === "nextGen";
  if (run.load) {
    meta.host = run.load.profile.host;
    meta.test_file = run.load.profile.testFile;
    meta.users = run.load.users;
    meta.run_time = run.load.runTime;
    meta.spawn_rate = run.load.spawnRate;
    meta.load_region = run.load.region;
  }
  return meta;
}

function asFields(meta: RunMetadataInput & { run_key: string }, format: string) {
  const fields: Record<string, string> = { format };
  for (const [name, value] of Object.entries(meta)) {
    if (value !== undefined) fields[name] = String(value);
  }
  return fields;
}

/** The upload of one planned run, in the run's report format. */
export function uploadOf(run: PlannedRun): DemoUpload {
  const meta = metadata(run);
  switch (run.format) {
    case "live":
      return { kind: "live", open: meta, results: liveResults(run) };
    case "cucumber":
      return {
        kind: "files",
        fields: asFields(meta, "cucumber"),
        files: [{ name: "cucumber-report.json", content: cucumberReport(run) }],
      };
    case "junit": {
      const { xml, files } = junitReport(run);
      return {
        kind: "files",
        fields: asFields(meta, "junit"),
        files: [{ name: "junit-report.xml", content: xml }, ...files],
      };
    }
    case "locust":
      return { kind: "files", fields: asFields(meta, "locust"), files: locustFiles(run) };
  }
}
