import { mkdir } from "node:fs/promises";
import path from "node:path";
import { loadConfig } from "../config.js";
import { withTimeout } from "./cleanup.js";
import { readThreadProfiles, summarizeProfile, type ProfileSummary } from "./cpu-profile.js";
import { readGcTrace, type GcSummary } from "./gc-trace.js";
import { IngestServer, type ServerSetup } from "./ingest-server.js";
import { seconds, step } from "./output.js";
import { measurePhases, type PhaseTimes } from "./phases.js";
import type { LocalFile } from "./upload.js";

/*
 * Where an upload's time and memory go, without touching the ingest code: the phases of the
 * pipeline timed in-process, and the upload repeated against a server started with --cpu-prof
 * and --trace-gc (its CPU profile cut to the upload's window, its heap before and after GCs).
 */

export interface UploadProfile {
  label: string;
  ms: number;
  peakRss: number;
  /** One per thread: the main thread, then the parse worker. */
  cpu: { thread: string; summary: ProfileSummary }[];
  gc: GcSummary[];
}

export interface PhaseProfile {
  file: string;
  phases: PhaseTimes;
}

/** Times each phase of ingesting a JUnit file, in the bench process, on the server's database. */
export async function profilePhases(
  tmp: string,
  dbUrl: string,
  file: LocalFile,
): Promise<PhaseProfile> {
  step(`profile: timing each ingest phase of ${file.name} in-process (rolled back)`);
  const pattern = loadConfig({}, tmp).catalog.testIdPattern;
  const phases = await withTimeout(
    "the phase timing",
    300_000,
    measurePhases(dbUrl, file, pattern),
  );
  return { file: file.name, phases };
}

/** Uploads `files` once to a server started under the profiler; the server is stopped after. */
export async function profileUpload(
  setup: ServerSetup,
  tmp: string,
  label: string,
  files: readonly LocalFile[],
  fields: Record<string, string>,
): Promise<UploadProfile> {
  const name = label.replace(/\W+/g, "-").toLowerCase();
  const dir = path.join(tmp, `cpu-prof-${name}`);
  await mkdir(dir, { recursive: true });
  step(`profile: ${label} again, on a server started with --cpu-prof --trace-gc`);
  const server = await IngestServer.start(
    setup,
    ["--cpu-prof", `--cpu-prof-dir=${dir}`, "--trace-gc"],
    `server-${name}.log`,
  );
  const m = await server.upload(files, fields);
  const logFile = server.server.logFile;
  await server.stop();
  const cpu = readThreadProfiles(dir).map(({ thread, profile }) => ({
    thread,
    summary: summarizeProfile(
      profile,
      Number(m.answer.startNs / 1000n),
      Number(m.answer.endNs / 1000n),
    ),
  }));
  step(`profile: ${label} took ${seconds(m.answer.ms)} under the profiler`);
  return { label, ms: m.answer.ms, peakRss: m.peakRss, cpu, gc: readGcTrace(logFile) };
}
