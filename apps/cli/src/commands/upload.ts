import { randomUUID } from "node:crypto";
import { statSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { IngestResponseSchema } from "@assay/core";
import { glob, isDynamicPattern } from "tinyglobby";
import { answerBody, sendStream, serverTarget, type ApiAnswer } from "../client.js";
import { KnownError } from "../errors.js";
import { multipartBody, type FileOnDisk } from "@assay/server/multipart-body";
import { referencedFiles } from "./upload-attachments.js";
import { UploadProgress } from "./upload-progress.js";

export const uploadUsage = `Usage: assay upload PATH... [options]

Uploads test reports (and the screenshots they refer to) to Assay. PATH may be a file, a folder
(an Allure results folder is sent whole) or a glob such as "reports/**/*.xml". The files a
Playwright or CTRF JSON report refers to by path (screenshots, traces) are sent with it when they
exist here. On a terminal it shows the bytes sent, then the server's storing; CI logs get only
the outcome and the run's link.

Options:
  --format FORMAT      auto (default), junit, cucumber, allure, ctrf, playwright, mocha, locust,
                       trx, nunit, xunit, testng, gotest, rspec, dart (docs/report-formats.md)
  --family FAMILY      frontend (default), backend or load
  --run-key KEY        merge into this run (sharded jobs use one key); default: $ASSAY_RUN_KEY
                       (set for builds started from Assay), else a new run
  --no-attachments     send only the PATHs given, not the files JSON reports refer to
  --junit-retries      JUnit: same-named test cases of one suite are retries of one test, as some
                       rerun tools write them (default: every test case is a test of its own)
  --name NAME          run name (default: $TEST_RUN_NAME, else the upload time)
  --site SITE          site the UI tests ran against (nora_site)
  --env ENV            environment of an API or load run
  Load runs: --host URL --test-file FILE --users N --run-time 5m --spawn-rate N --load-region R
             --started-at ISO-8601 --duration-ms MS (when the test ran; Locust's CSV has neither)
  --baseurl URL        base URL of an API run
  --branch BRANCH      --commit SHA      --executor NAME
  --next-gen           NextGen platform run       --china-region   China-region run
  --server URL         Assay server (default: $ASSAY_URL or http://localhost:8080)
  --token TOKEN        service token (default: $ASSAY_TOKEN)

Exit codes: 0 uploaded, 1 a known problem (bad token, no report, the server's 4xx message),
2 anything unexpected.

Examples:
  npx assay upload junit.xml --site stage.example.com --branch main
  npx assay upload allure-results --format allure --run-key nightly-42
  ASSAY_TOKEN=assay_... npx assay upload "reports/**/*.json" --family backend --env dev`;

const options = {
  format: { type: "string" },
  family: { type: "string" },
  "run-key": { type: "string" },
  "junit-retries": { type: "boolean" },
  "no-attachments": { type: "boolean" },
  name: { type: "string" },
  site: { type: "string" },
  env: { type: "string" },
  host: { type: "string" },
  "test-file": { type: "string" },
  users: { type: "string" },
  "run-time": { type: "string" },
  "spawn-rate": { type: "string" },
  "load-region": { type: "string" },
  "started-at": { type: "string" },
  "duration-ms": { type: "string" },
  baseurl: { type: "string" },
  branch: { type: "string" },
  commit: { type: "string" },
  executor: { type: "string" },
  "next-gen": { type: "boolean" },
  "china-region": { type: "boolean" },
  server: { type: "string" },
  token: { type: "string" },
} as const;

interface LocalFile extends FileOnDisk {
  /** Name sent to the server: relative, so reports can refer to their screenshots. */
  name: string;
}

/** Files, folders (recursively) and globs, each file once. */
export async function expandPaths(
  args: readonly string[],
  cwd = process.cwd(),
): Promise<LocalFile[]> {
  const files = new Map<string, LocalFile>();
  const add = (file: string, name: string) => {
    if (!files.has(file))
      files.set(file, {
        name: name.split(path.sep).join("/"),
        path: file,
        size: statSync(file).size,
      });
  };
  for (const arg of args) {
    if (isDynamicPattern(arg)) {
      const matches = await glob(arg, { cwd, absolute: true, onlyFiles: true });
      if (matches.length === 0) throw new KnownError(`no file matches "${arg}".`);
      for (const match of matches.sort()) add(match, path.relative(cwd, match));
      continue;
    }
    const full = path.resolve(cwd, arg);
    const stat = statSync(full, { throwIfNoEntry: false });
    if (!stat) throw new KnownError(`no such file or folder: ${arg}`);
    if (stat.isFile()) add(full, path.basename(full));
    else {
      const inside = await glob("**/*", { cwd: full, absolute: true, onlyFiles: true, dot: false });
      if (inside.length === 0) throw new KnownError(`the folder ${arg} is empty: no report found.`);
      for (const file of inside.sort()) add(file, path.relative(path.dirname(full), file));
    }
  }
  return [...files.values()];
}

/** The set fields as text parts (a flag only when on), then the files, opened as they are sent. */
function bodyFor(
  values: Record<string, string | boolean | undefined>,
  files: readonly LocalFile[],
) {
  const fields: Record<string, string> = {};
  for (const [name, value] of Object.entries(values)) {
    if (value !== undefined && value !== false) fields[name] = String(value);
  }
  return multipartBody(fields, files);
}

export async function upload(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    options,
    allowPositionals: true,
    strict: true,
  });
  if (positionals.length === 0)
    throw new KnownError(`give at least one file, folder or glob.\n\n${uploadUsage}`);
  const target = serverTarget(values.server, values.token);
  const given = await expandPaths(positionals);
  const referenced = values["no-attachments"] ? [] : referencedFiles(given);
  const files = [...given, ...referenced];
  const fields = {
    format: values.format,
    family: values.family,
    run_key: values["run-key"] ?? (process.env.ASSAY_RUN_KEY || undefined),
    junit_retries: values["junit-retries"] ? "true" : undefined,
    // A build's runner is given its run's name (docs/runners.md): the run takes the build's.
    test_run_name: values.name ?? (process.env.TEST_RUN_NAME || undefined),
    nora_site: values.site,
    env: values.env,
    host: values.host,
    test_file: values["test-file"],
    users: values.users,
    run_time: values["run-time"],
    spawn_rate: values["spawn-rate"],
    load_region: values["load-region"],
    started_at: values["started-at"],
    duration_ms: values["duration-ms"],
    baseurl: values.baseurl,
    branch: values.branch,
    commit: values.commit,
    executor: values.executor,
    is_next_gen: values["next-gen"] ? "true" : undefined,
    is_china_region: values["china-region"] ? "true" : undefined,
  };
  // One key for every attempt: a retry after a dropped connection cannot store the run twice.
  const idempotencyKey = randomUUID();
  const multipart = bodyFor(fields, files);
  const headers = {
    "content-type": multipart.contentType,
    "content-length": multipart.length,
    "idempotency-key": idempotencyKey,
  };
  let answer: ApiAnswer | undefined;
  for (let attempt = 1; !answer; attempt++) {
    const progress = UploadProgress.forTerminal(multipart.length);
    try {
      answer = await sendStream(target, "/v1/ingest/reports", multipart.open(), headers, (sent) =>
        progress?.sent(sent),
      );
    } catch (error) {
      if (!(error instanceof KnownError) || attempt >= 3) throw error;
      await new Promise((r) => setTimeout(r, 1000 * attempt));
    } finally {
      progress?.done();
    }
  }
  const body = answerBody(target, answer, IngestResponseSchema, "an upload");
  const c = body.counts;
  const n = (count: number) => count.toLocaleString("en-US");
  console.log(
    `Run ${body.test_run_key}: ${n(body.inserted)} results stored${body.duplicates ? `, ${n(body.duplicates)} already there` : ""}.`,
  );
  console.log(
    `Total ${n(c.total)}, passed ${n(c.passed)}, failed ${n(c.failed)}, skipped ${n(c.pending)}${c.flaky ? `, flaky ${n(c.flaky)}` : ""}.`,
  );
  if (referenced.length > 0) {
    const bytes = referenced.reduce((sum, file) => sum + file.size, 0);
    console.log(
      `Sent ${n(referenced.length)} attachment(s) the reports refer to (${(bytes / 1048576).toFixed(1)} MiB).`,
    );
  }
  if (body.missing_attachments.length > 0) {
    console.log(
      `Attachments not found in the upload: ${body.missing_attachments.slice(0, 5).join(", ")}`,
    );
  }
  for (const warning of body.warnings) console.log(`Warning: ${warning}`);
  console.log(runLink(body, target.url));
}

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * The run's absolute address: the server's public one (ASSAY_PUBLIC_URL), unless the server has
 * none set and answers its localhost default to a CLI that reached it elsewhere; then the
 * address the CLI used.
 */
export function runLink(body: { url: string; link?: string }, server: URL): string {
  if (body.link) {
    const link = new URL(body.link);
    if (!LOOPBACK.has(link.hostname) || LOOPBACK.has(server.hostname)) return link.toString();
  }
  return new URL(body.url, server).toString();
}
