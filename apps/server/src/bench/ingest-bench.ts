import { randomBytes } from "node:crypto";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import type { IngestResponse } from "@assay/core";
import { writeAllureResults } from "./allure-gen.js";
import { withTimeout, type Cleanup } from "./cleanup.js";
import { measureCopy, type CopyRates } from "./copy-baseline.js";
import { serverVersion, withClient, type BenchCluster } from "./databases.js";
import {
  profilePhases,
  profileUpload,
  type PhaseProfile,
  type UploadProfile,
} from "./ingest-profile.js";
import { errorText, IngestServer, type Measured, type ServerSetup } from "./ingest-server.js";
import { writeJunitReport } from "./junit-gen.js";
import { count, mib, rate, seconds, step } from "./output.js";
import type { LocalFile } from "./upload.js";

export interface IngestRow {
  label: string;
  input: string;
  results: number;
  ms: number;
  peakRss: number;
  idleRss: number;
  serverCpuMs: number;
  postgresCpuMs: number | undefined;
  copy?: CopyRates;
  runKey: string;
}

export interface IngestReport {
  rows: IngestRow[];
  /** The 100k-test JUnit upload of new tests: the row the targets apply to. */
  target: IngestRow | undefined;
  /** The same file again, its tests known: a daily run's case, judged against 2 s as well. */
  known: IngestRow | undefined;
  /** A 300k-test JUnit upload of new tests: whether memory stays flat as the file grows. */
  larger: IngestRow | undefined;
  /** runs.total/passed/failed/... match a count of the run's final results. */
  countsStored: boolean;
  phases?: PhaseProfile;
  profiles: UploadProfile[];
  postgres: string;
}

export interface IngestContext {
  tmp: string;
  quick: boolean;
  forceProfile: boolean;
  /** An external PostgreSQL for scratch databases; absent: the server's embedded one. */
  external: BenchCluster | undefined;
  cleanup: Cleanup;
  maxLifetimeMs: number;
}

const TARGET_MS = 2_000;
const TARGET_RSS = 256 * 1024 * 1024;

function rowOf(label: string, input: string, m: Measured): IngestRow {
  if (m.answer.status !== 201 && m.answer.status !== 200) {
    throw new Error(`${label}: the server answered ${m.answer.status} (${errorText(m.answer)})`);
  }
  const body = m.answer.body as IngestResponse;
  const row: IngestRow = {
    label,
    input,
    results: body.inserted,
    ms: m.answer.ms,
    peakRss: m.peakRss,
    idleRss: m.idleRss,
    serverCpuMs: m.serverCpuMs,
    postgresCpuMs: m.postgresCpuMs,
    runKey: body.test_run_key,
  };
  step(
    `${label}: ${count(row.results)} results in ${seconds(row.ms)} = ${count(rate(row.results, row.ms))} results/s, peak RSS ${mib(row.peakRss)}`,
  );
  return row;
}

/** runs' stored counts against a count of the run's final results. */
async function countsMatch(dbUrl: string, runKey: string): Promise<boolean> {
  return withClient(dbUrl, async (c) => {
    const { rows } = await c.query<{ ok: boolean }>(
      `SELECT (r.total, r.passed, r.failed + r.pending, r.flaky) =
              (c.total, c.passed, c.failed + c.skipped, c.flaky) AS ok
       FROM runs r,
       LATERAL (SELECT count(*)::int AS total,
                       count(*) FILTER (WHERE status = 'passed')::int AS passed,
                       count(*) FILTER (WHERE status = 'failed')::int AS failed,
                       count(*) FILTER (WHERE status = 'skipped')::int AS skipped,
                       count(*) FILTER (WHERE flaky)::int AS flaky
                FROM results WHERE run_id = r.id AND is_final) c
       WHERE r.test_run_key = $1`,
      [runKey],
    );
    return rows[0]?.ok === true;
  });
}

/**
 * The Allure folder as `assay upload allure-results` sends it: every file in one upload. Returns
 * its files, to profile.
 */
async function benchAllure(
  target: IngestServer,
  inputs: string,
  report: IngestReport,
): Promise<LocalFile[]> {
  step("generating the Allure results folder");
  const allure = await writeAllureResults(path.join(inputs, "allure"), 10_000, 3);
  const bytes = allure.files.reduce((s, f) => s + f.size, 0);
  const input = `${count(allure.files.length)} files, ${mib(bytes)}`;
  step(`Allure 10k: the whole folder in one upload (${input})`);
  const measured = await target.upload(allure.files, { format: "allure" });
  report.rows.push(rowOf("Allure 10k", input, measured));
  return allure.files;
}

/** Where a bench server keeps its data, and its database (an external one's if configured). */
async function serverSetup(ctx: IngestContext, folder: string): Promise<ServerSetup> {
  return {
    dataDir: path.join(ctx.tmp, folder),
    databaseUrl: ctx.external
      ? await ctx.external.createDatabase(`assay_bench_ingest_${randomBytes(3).toString("hex")}`)
      : undefined,
    cleanup: ctx.cleanup,
    maxLifetimeMs: ctx.maxLifetimeMs,
  };
}

/**
 * Whether memory stays flat as the file grows: a 300k-test report on a second server with the
 * same history as the first had before its 100k upload (the warm-up and the 10k), so that the two
 * peaks differ by the file alone. On the first server it would follow the other uploads, whose
 * memory the process keeps. Its raw COPY is measured there too.
 */
async function benchLarger(
  ctx: IngestContext,
  inputs: string,
  history: LocalFile[],
): Promise<IngestRow> {
  step("generating a JUnit report of 300k tests (memory as the file grows)");
  const junit300k = await writeJunitReport(path.join(inputs, "junit-300k.xml"), 300_000, 3);
  step("starting a second server for it, with the first's history (warm-up and 10k)");
  const server = await IngestServer.start(await serverSetup(ctx, "ingest-server-300k"));
  for (const file of history) await server.upload([file], {});
  const row = rowOf(
    "JUnit 300k (new tests)",
    `1 file, ${mib(junit300k.size)}`,
    await server.upload([junit300k], {}),
  );
  step(`raw COPY of the ${count(row.results)} rows of "${row.label}"`);
  row.copy = await withTimeout(
    "a COPY baseline",
    300_000,
    measureCopy(server.dbUrl, row.runKey, ctx.tmp),
  );
  await server.stop();
  return row;
}

/**
 * Ingest throughput end to end: generated reports POSTed to a real server process, its peak RSS,
 * the raw COPY rate of the same rows, and (when the 100k target is missed, or on --profile)
 * where the time goes.
 */
export async function benchIngest(ctx: IngestContext): Promise<IngestReport> {
  const inputs = path.join(ctx.tmp, "inputs");
  await mkdir(inputs, { recursive: true });
  step("generating JUnit reports");
  const warmup = await writeJunitReport(path.join(inputs, "warmup.xml"), 1_000, 7);
  const junit10k = await writeJunitReport(path.join(inputs, "junit-10k.xml"), 10_000, 1);
  const junit100k = ctx.quick
    ? undefined
    : await writeJunitReport(path.join(inputs, "junit-100k.xml"), 100_000, 2);
  const setup = await serverSetup(ctx, "ingest-server");
  step(
    `starting the server (data in ${setup.dataDir}${setup.databaseUrl ? ", external database" : ", embedded PostgreSQL"})`,
  );
  const target = await IngestServer.start(setup);
  const report: IngestReport = {
    rows: [],
    target: undefined,
    known: undefined,
    larger: undefined,
    countsStored: false,
    profiles: [],
    postgres: await serverVersion(target.dbUrl),
  };
  await target.upload([warmup], {});
  step("warm-up upload done (1,000 tests, not counted)");

  const fileInput = (f: LocalFile) => `1 file, ${mib(f.size)}`;
  report.rows.push(rowOf("JUnit 10k", fileInput(junit10k), await target.upload([junit10k], {})));
  let allure: LocalFile[] | undefined;
  if (junit100k) {
    report.target = rowOf(
      "JUnit 100k (new tests)",
      fileInput(junit100k),
      await target.upload([junit100k], {}),
    );
    report.rows.push(report.target);
    report.known = rowOf(
      "JUnit 100k (known tests)",
      fileInput(junit100k),
      await target.upload([junit100k], {}),
    );
    report.rows.push(report.known);
    allure = await benchAllure(target, inputs, report);
  }
  report.countsStored = await countsMatch(target.dbUrl, report.rows[0]!.runKey);
  if (junit100k) {
    report.larger = await benchLarger(ctx, inputs, [warmup, junit10k]);
    report.rows.push(report.larger);
  }
  for (const row of report.rows) {
    if (row.copy) continue;
    step(`raw COPY of the ${count(row.results)} rows of "${row.label}"`);
    row.copy = await withTimeout(
      "a COPY baseline",
      300_000,
      measureCopy(target.dbUrl, row.runKey, ctx.tmp),
    );
  }
  const missed =
    report.target && (report.target.ms > TARGET_MS || report.target.peakRss >= TARGET_RSS);
  if (!missed && !ctx.forceProfile) {
    await target.stop();
    return report;
  }
  const junit = junit100k ?? junit10k;
  report.phases = await profilePhases(ctx.tmp, target.dbUrl, junit);
  await target.stop();
  report.profiles.push(
    await profileUpload(setup, ctx.tmp, `JUnit ${junit100k ? "100k" : "10k"}`, [junit], {}),
  );
  if (allure) {
    const fields = {
      format: "allure",
      run_key: `bench-allure-profile-${randomBytes(4).toString("hex")}`,
    };
    report.profiles.push(await profileUpload(setup, ctx.tmp, "Allure 10k", allure, fields));
  }
  return report;
}
