import path from "node:path";
import { withTimeout, type Cleanup } from "./cleanup.js";
import { embeddedCluster } from "./databases.js";
import { clusterCpuMs, cpuMsOf } from "./procstat.js";
import { PeakRss } from "./rss.js";
import { BENCH_TOKEN, startServerProcess, type ServerProcess } from "./server-process.js";
import { uploadReports, type LocalFile, type UploadAnswer } from "./upload.js";

const UPLOAD_TIMEOUT_MS = 300_000;

export interface ServerSetup {
  dataDir: string;
  /** External database; absent: the server's embedded PostgreSQL in dataDir. */
  databaseUrl: string | undefined;
  cleanup: Cleanup;
  maxLifetimeMs: number;
  /** More environment for the server process (e.g. BENCH_TRIAGE: server-entry.ts). */
  env?: Record<string, string>;
}

/** One upload as the server lived it: the answer, peak RSS and the CPU used on both sides. */
export interface Measured {
  answer: UploadAnswer;
  peakRss: number;
  idleRss: number;
  serverCpuMs: number;
  /** Absent when PostgreSQL is not a local child of the server (BENCH_DATABASE_URL). */
  postgresCpuMs: number | undefined;
}

export function errorText(answer: UploadAnswer): string {
  const body = answer.body as { error?: { code?: string; message?: string } } | string;
  if (typeof body === "string") return body.slice(0, 200);
  return `${body.error?.code ?? "?"}: ${body.error?.message ?? JSON.stringify(body).slice(0, 200)}`;
}

/** A server process for ingestion, and the URL of its database for the bench's own queries. */
export class IngestServer {
  private constructor(
    readonly server: ServerProcess,
    readonly dbUrl: string,
  ) {}

  static async start(setup: ServerSetup, nodeArgs: string[] = [], logName?: string) {
    const server = await startServerProcess(
      {
        dataDir: setup.dataDir,
        maxLifetimeMs: setup.maxLifetimeMs,
        nodeArgs,
        ...(setup.env ? { env: setup.env } : {}),
        ...(setup.databaseUrl ? { databaseUrl: setup.databaseUrl } : {}),
        ...(logName ? { logName } : {}),
      },
      setup.cleanup,
    );
    // The embedded cluster the server runs: the bench connects to it for the COPY baseline.
    const dbUrl =
      setup.databaseUrl ??
      (await (
        await embeddedCluster(path.join(setup.dataDir, "postgres"), setup.cleanup)
      ).createDatabase("assay"));
    return new IngestServer(server, dbUrl);
  }

  async upload(files: readonly LocalFile[], fields: Record<string, string>): Promise<Measured> {
    const sampler = new PeakRss(this.server.pid);
    const pgPid = this.server.postgresPid;
    const cpuBefore = cpuMsOf(this.server.pid);
    const pgBefore = pgPid ? clusterCpuMs(pgPid) : 0;
    sampler.start();
    const answer = await withTimeout(
      "an upload",
      UPLOAD_TIMEOUT_MS,
      uploadReports(this.server.url, BENCH_TOKEN, files, fields, UPLOAD_TIMEOUT_MS),
    );
    const peakRss = sampler.stop();
    return {
      answer,
      peakRss,
      idleRss: sampler.baseline,
      serverCpuMs: cpuMsOf(this.server.pid) - cpuBefore,
      postgresCpuMs: pgPid ? clusterCpuMs(pgPid) - pgBefore : undefined,
    };
  }

  stop(): Promise<void> {
    return this.server.stop();
  }
}
