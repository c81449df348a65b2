import { mkdtemp, rm, writeFile, readFile, chmod } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { buildApp } from "../app.js";
import { EXAMPLE_CONFIG_PATH, loadConfig } from "../config.js";
import { createDb } from "../db/pool.js";
import { migrate } from "../db/migrate.js";
import { Jobs } from "../jobs/jobs.js";
import { LocalObjectStore } from "../storage/local-store.js";
import { insertUser } from "../modules/users/users.repo.js";
import { Cleanup } from "./cleanup.js";
import { CodeBuildFake } from "./codebuild-fake.js";
import { embeddedCluster, externalCluster, quietLog } from "./databases.js";
import { say, step } from "./output.js";

/**
 * Builds bench (npm run bench:builds): the p95 of POST /v1/builds on the local executor over real
 * HTTP, and one poll cycle of 1,000 active CodeBuild builds against the JSON 1.1 fake, counting
 * its BatchGetBuilds calls. Targets: p95 <= 200 ms; <= 10 calls per cycle.
 */

const POSTS = 300;
const ACTIVE = 1000;

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function main(): Promise<void> {
  const cleanup = new Cleanup();
  const tmp = await mkdtemp(path.join(os.tmpdir(), "assay-bench-builds-"));
  await chmod(tmp, 0o711);
  cleanup.add(`temporary folder ${tmp}`, () => rm(tmp, { recursive: true, force: true }));
  try {
    const base = process.env.BENCH_DATABASE_URL;
    const cluster = base
      ? externalCluster(base, cleanup)
      : await embeddedCluster(path.join(tmp, "pg"), cleanup);
    const url = await cluster.createDatabase("assay_bench_builds");
    const db = createDb(url, 10);
    cleanup.add("database pool", () => db.close());
    await migrate(db.pool);
    const fake = new CodeBuildFake();
    await fake.start();
    cleanup.add("CodeBuild fake", () => fake.stop());

    const configFile = path.join(tmp, "assay.config.yaml");
    const codebuild = `{ kind: codebuild, projectName: bench, region: us-west-2, endpoint: "${fake.url}", credentialsEnvPrefix: BENCH_AWS }`;
    await writeFile(
      configFile,
      `${await readFile(EXAMPLE_CONFIG_PATH, "utf8")}\nbuilds:\n  pollSeconds: 600\n  rateLimit: { builds: 10000, perMinutes: 1 }\n  executors: { frontend: { kind: local, command: ["/bin/true"] }, backend: ${codebuild} }\n`,
    );
    const config = loadConfig({
      ASSAY_CONFIG: configFile,
      ASSAY_DATA_DIR: tmp,
      ASSAY_SECRET_KEY: Buffer.alloc(32, 3).toString("base64"),
    });
    const user = await insertUser(db.kysely, {
      email: "bench@example.com",
      name: "Bench",
      passwordHash: "x",
      admin: false,
    });
    const principal = {
      kind: "user" as const,
      id: Number(user.id),
      email: "bench@example.com",
      name: "Bench",
      admin: false,
    };
    const objects = new LocalObjectStore(path.join(tmp, "objects"));
    await objects.init();
    const jobs = await Jobs.start(db.pool, quietLog);
    cleanup.add("jobs", () => jobs.stop());
    const app = await buildApp({
      config,
      db,
      logger: quietLog,
      objects,
      jobs,
      resolvePrincipal: async () => principal,
      serverEnv: {
        PATH: process.env.PATH,
        BENCH_AWS_ACCESS_KEY_ID: "AKIABENCH",
        BENCH_AWS_SECRET_ACCESS_KEY: "bench",
      },
    });
    cleanup.add("app", () => app.close());
    const address = await app.listen({ port: 0, host: "127.0.0.1" });

    step(`POST /v1/builds x ${POSTS} (local executor, real HTTP)`);
    const times: number[] = [];
    for (let i = 0; i < POSTS; i++) {
      const start = performance.now();
      const answer = await fetch(`${address}/v1/builds`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          nora_site: "dev1.example.com",
          mode: "by_tags",
          tag: "@smoke",
          branch: "master",
        }),
      });
      await answer.arrayBuffer();
      if (answer.status !== 201) throw new Error(`POST /v1/builds answered ${answer.status}`);
      times.push(performance.now() - start);
    }
    const p95 = percentile(times, 95);

    step(`${ACTIVE} active CodeBuild builds, one poll cycle`);
    for (let i = 0; i < ACTIVE; i++) {
      const id = `bench:build-${i}`;
      fake.builds.set(id, {
        id,
        projectName: "bench",
        sourceVersion: "master",
        environmentVariables: [],
        phaseIndex: 0,
        buildStatus: "IN_PROGRESS",
        startTime: Date.now() / 1000,
        outcome: "SUCCEEDED",
        events: [],
      });
    }
    await db.pool.query(
      `INSERT INTO builds (family, region, executor_kind, external_id, test_run_key, mode, test_run_name, executor,
         source_version, payload, started_by_id, started_by_email, started_by_name, deadline)
       SELECT 'backend', 'US', 'codebuild', 'bench:build-' || n, 'bench-run-' || n, 'run_all', 'bench', 'Bench', 'master',
         '{}', $1, 'bench@example.com', 'Bench', now() + interval '1 hour'
       FROM generate_series(0, ${ACTIVE - 1}) AS n`,
      [principal.id],
    );
    const before = fake.count("BatchGetBuilds");
    const cycleStart = performance.now();
    await app.buildRunner.pollCycle(0);
    const cycleMs = performance.now() - cycleStart;
    const calls = fake.count("BatchGetBuilds") - before;

    say("");
    say(
      `POST /v1/builds: p50 ${percentile(times, 50).toFixed(1)} ms, p95 ${p95.toFixed(1)} ms, max ${Math.max(...times).toFixed(1)} ms (target p95 <= 200 ms): ${p95 <= 200 ? "PASS" : "FAIL"}`,
    );
    say(
      `Poll cycle of ${ACTIVE} CodeBuild builds: ${calls} BatchGetBuilds calls in ${cycleMs.toFixed(0)} ms (target <= 10 calls): ${calls <= 10 ? "PASS" : "FAIL"}`,
    );
    say(`load average ${os.loadavg()[0]!.toFixed(2)} on ${os.cpus().length} cores`);
  } finally {
    await cleanup.run();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    say(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exit(1);
  },
);
