import { randomBytes } from "node:crypto";
import { chmod, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { IngestResponse } from "@assay/core";
import { Cleanup } from "./cleanup.js";
import { externalCluster } from "./databases.js";
import { writeFormatReport, type GeneratedFormat } from "./formats-gen.js";
import { errorText, IngestServer } from "./ingest-server.js";
import { count, mib, say, seconds, step, table } from "./output.js";

/**
 * `npm run bench:formats [-- TESTS]`: the same generated tests (default 100,000) uploaded as
 * JUnit XML, as a TRX and as a go test -json stream, each to a server process (and database) of
 * its own after a 1,000-test warm-up, with the time to the answer and the server's peak RSS. Target (issue #37): TRX and go
 * within 1.5x of JUnit's time, at flat memory. BENCH_DATABASE_URL names an external PostgreSQL
 * (a scratch database is made there); otherwise the server runs its embedded one.
 */

const FORMATS: GeneratedFormat[] = ["junit", "trx", "gotest"];

async function main(): Promise<number> {
  const tests = Number(process.argv[2] ?? 100_000);
  // The server's CPU time is what the format changes; on a busy machine the wall time also
  // measures the other processes.
  const cleanup = new Cleanup();
  const tmp = await mkdtemp(path.join(os.tmpdir(), "assay-bench-formats-"));
  await chmod(tmp, 0o711);
  cleanup.add(`temporary folder ${tmp}`, () => rm(tmp, { recursive: true, force: true }));
  try {
    const base = process.env.BENCH_DATABASE_URL;
    const external = base ? externalCluster(base, cleanup) : undefined;
    step(`generating ${count(tests)} tests in ${FORMATS.join(", ")}`);
    const files = [];
    for (const [i, format] of FORMATS.entries()) {
      // One seed: the same tests in each format.
      files.push(await writeFormatReport(format, path.join(tmp, `${format}-${i}`), tests, 5));
    }
    const warmup = await writeFormatReport("junit", path.join(tmp, "warmup.xml"), 1_000, 9);
    const rows: string[][] = [];
    let junitMs = 0;
    for (const [i, file] of files.entries()) {
      // A server (and database) each: the peaks compare the formats, not the uploads before.
      const databaseUrl = await external?.createDatabase(
        `assay_bench_formats_${randomBytes(3).toString("hex")}`,
      );
      const server = await IngestServer.start({
        dataDir: path.join(tmp, `server-${i}`),
        databaseUrl,
        cleanup,
        maxLifetimeMs: 30 * 60_000,
      });
      await server.upload([warmup], {});
      const measured = await server.upload([file], {});
      await server.stop();
      if (measured.answer.status !== 201) {
        throw new Error(`${file.name}: ${measured.answer.status} ${errorText(measured.answer)}`);
      }
      const body = measured.answer.body as IngestResponse;
      if (i === 0) junitMs = measured.answer.ms;
      step(`${file.name}: ${count(body.inserted)} results in ${seconds(measured.answer.ms)}`);
      rows.push([
        FORMATS[i]!,
        mib(file.size),
        count(body.inserted),
        seconds(measured.answer.ms),
        `${(measured.answer.ms / junitMs).toFixed(2)}x`,
        `${(measured.serverCpuMs / 1000).toFixed(1)} s`,
        mib(measured.peakRss),
        mib(measured.idleRss),
      ]);
    }
    say();
    for (const line of table(
      ["format", "file", "results", "time", "vs JUnit", "server CPU", "peak RSS", "RSS before"],
      rows,
    )) {
      say(line);
    }
    say(
      `load average while running: ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(" ")}`,
    );
    return 0;
  } finally {
    await cleanup.run();
  }
}

process.exitCode = await main();
