import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { DataHarmonizationConfigSchema, type DhMissingRows, type DhRun } from "@assay/core";
import mysql from "mysql2/promise";
import pg from "pg";
import { buildApp } from "../app.js";
import { DhSecrets, EXAMPLE_CONFIG_PATH, loadConfig } from "../config.js";
import { migrate } from "../db/migrate.js";
import { createDb } from "../db/pool.js";
import { Jobs } from "../jobs/jobs.js";
import { LocalObjectStore } from "../storage/local-store.js";
import { Cleanup } from "./cleanup.js";
import { embeddedCluster, externalCluster, quietLog } from "./databases.js";
import { count, say, seconds, step } from "./output.js";

/**
 * `npm run bench:dh`: a Legacy sql report of 200 entities across two databases, MariaDB/MySQL
 * (BENCH_MYSQL_URL, default mysql://root@127.0.0.1:3306) against PostgreSQL (BENCH_DATABASE_URL's
 * server, else an embedded cluster), through the real app: Run Report (POST /v1/dh/runs), the
 * pg-boss job, the connectors, the rows saved as they move, polled as the screen polls them.
 * Target (issue #23): <= 5 s. Then Find missing rows on one unequal entity.
 */

const ENTITIES = 200;
const rowsOf = (i: number) => 1_000 + i * 50;
/** Entities whose destination lacks keys (entity -> keys), and one never loaded (Failed). */
const LOST: Record<number, number[]> = { 7: [3], 77: [10, 11], 177: [500, 501, 502] };
const NEVER_LOADED = 150;
const MYSQL_DB = "assay_bench_dh";

async function fillMysql(url: string, cleanup: Cleanup): Promise<void> {
  const admin = await mysql.createConnection({ uri: url, multipleStatements: true });
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${MYSQL_DB}; CREATE DATABASE ${MYSQL_DB}`);
    cleanup.add(`MySQL database ${MYSQL_DB}`, async () => {
      const c = await mysql.createConnection({ uri: url });
      await c.query(`DROP DATABASE IF EXISTS ${MYSQL_DB}`);
      await c.end();
    });
    await admin.query(`USE ${MYSQL_DB}; CREATE TABLE nums (n int primary key)`);
    const most = rowsOf(ENTITIES - 1);
    for (let i = 1; i <= most; i += 5_000)
      await admin.query("INSERT INTO nums VALUES ?", [
        Array.from({ length: Math.min(5_000, most - i + 1) }, (_, j) => [i + j]),
      ]);
    for (let i = 0; i < ENTITIES; i++)
      await admin.query(
        `CREATE TABLE e${i} (id int primary key) AS SELECT n AS id FROM nums WHERE n <= ${rowsOf(i)}`,
      );
  } finally {
    await admin.end();
  }
}

async function fillPostgres(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (let i = 0; i < ENTITIES; i++) {
      if (i === NEVER_LOADED) continue;
      await client.query(
        `CREATE TABLE e${i} AS SELECT g AS id FROM generate_series(1, ${rowsOf(i)}) g WHERE g <> ALL($1::int[])`,
        [LOST[i] ?? []],
      );
    }
  } finally {
    await client.end();
  }
}

async function main(): Promise<void> {
  const cleanup = new Cleanup();
  const tmp = await mkdtemp(path.join(os.tmpdir(), "assay-bench-dh-"));
  cleanup.add(`temporary folder ${tmp}`, () => rm(tmp, { recursive: true, force: true }));
  try {
    const mysqlUrl = process.env.BENCH_MYSQL_URL ?? "mysql://root@127.0.0.1:3306";
    const base = process.env.BENCH_DATABASE_URL;
    const cluster = base
      ? externalCluster(base, cleanup)
      : await embeddedCluster(path.join(tmp, "pg"), cleanup);
    step(
      `filling ${ENTITIES} tables in MySQL (${mysqlUrl.replace(/\/\/.*@/, "//")}) and in ${cluster.description}`,
    );
    const total = Array.from({ length: ENTITIES }, (_, i) => rowsOf(i)).reduce((a, b) => a + b);
    const destinationUrl = await cluster.createDatabase("assay_bench_dh_dest");
    await fillMysql(mysqlUrl, cleanup);
    await fillPostgres(destinationUrl);

    const url = await cluster.createDatabase("assay_bench_dh");
    const db = createDb(url, 10);
    cleanup.add("database pool", () => db.close());
    await migrate(db.pool);
    const config = loadConfig({
      ASSAY_CONFIG: EXAMPLE_CONFIG_PATH,
      ASSAY_DATA_DIR: tmp,
      ASSAY_SECRET_KEY: Buffer.alloc(32, 3).toString("base64"),
    });
    // Both sources keep the defaults a real configuration starts from (4 connections each).
    const dhConfig = DataHarmonizationConfigSchema.parse({
      sources: {
        mysql: { kind: "mysql", urlEnv: "BENCH_DH_MYSQL" },
        redshift: { kind: "postgres", urlEnv: "BENCH_DH_PG" },
      },
      environments: {
        legacy: [
          {
            value: "bench-dev",
            alias: "Bench Dev",
            envType: "dev",
            type: "sql",
            source: "mysql",
            destination: "redshift",
            entities: Array.from({ length: ENTITIES }, (_, i) => ({
              entity: `Entity ${i}`,
              source: `e${i}`,
              destination: `e${i}`,
              key: "id",
            })),
          },
        ],
      },
      global: {
        environments: [],
        schemas: Object.fromEntries(
          ["trial", "admin", "notifications", "scheduler", "tenant", "reference"].map((s) => [
            s,
            ["t"],
          ]),
        ),
      },
    });
    const secrets = new Map([
      ["BENCH_DH_MYSQL", `${mysqlUrl.replace(/\/$/, "")}/${MYSQL_DB}`],
      ["BENCH_DH_PG", destinationUrl],
    ]);
    const jobs = await Jobs.start(db.pool, quietLog);
    cleanup.add("jobs", () => jobs.stop());
    const objects = new LocalObjectStore(path.join(tmp, "objects"));
    await objects.init();
    const app = await buildApp({
      config: {
        ...config,
        dataHarmonization: { config: dhConfig, secrets: new DhSecrets(secrets) },
      },
      db,
      logger: quietLog,
      objects,
      jobs,
      resolvePrincipal: async () => ({
        kind: "user" as const,
        id: 1,
        email: "bench@example.com",
        name: "Bench",
        admin: false,
      }),
    });
    cleanup.add("app", () => app.close());

    const figures: string[] = [];
    for (const round of ["first", "second", "third"]) {
      step(`Run Report, ${round} run: ${ENTITIES} entities, ${count(total)} rows a side`);
      // What the screen asks before Run Report can be pressed: the environments, their runs.
      await app.inject({ url: "/v1/dh/legacy/sql/dev/environments" });
      await app.inject({ url: "/v1/dh/runs?platform=legacy&type=sql&envType=dev&env=bench-dev" });
      const started = performance.now();
      const answer = await app.inject({
        method: "POST",
        url: "/v1/dh/runs",
        payload: { platform: "legacy", type: "sql", envType: "dev", env: "bench-dev" },
      });
      if (answer.statusCode !== 202) throw new Error(`Run Report answered ${answer.statusCode}`);
      const answered = performance.now() - started;
      let run: DhRun;
      let pickedUp: number | undefined;
      for (;;) {
        // The screen's poll interval is 1 s; the bench looks every 50 ms to time the end.
        run = (await app.inject({ url: `/v1/dh/runs/${answer.json().id}` })).json<DhRun>();
        if (run.state !== "queued") pickedUp ??= performance.now() - started;
        if (run.state === "done" || run.state === "failed") break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const elapsed = performance.now() - started;
      const t = run.totals;
      if (run.state !== "done" || t.success !== 196 || t.unequal !== 3 || t.failed !== 1)
        throw new Error(`unexpected run: ${JSON.stringify({ state: run.state, totals: t })}`);
      figures.push(
        `${round} run: ${seconds(elapsed)} (target <= 5 s: ${elapsed <= 5_000 ? "PASS" : "FAIL"}; answered in ${seconds(answered)}, the job picked up after ${seconds(pickedUp ?? elapsed)}); Success ${t.success}, Unequal Counts ${t.unequal}, Failed ${t.failed}`,
      );
      if (round === "third") {
        const row = run.rows.find((r) => r.entity === "Entity 177");
        const find = await app.inject({
          method: "POST",
          url: `/v1/dh/runs/${run.id}/rows/${row?.id}/missing-rows`,
        });
        const found = find.json<DhMissingRows>();
        if (found.missing.join() !== "500,501,502") throw new Error(find.body);
        figures.push(
          `Find missing rows, Entity 177 (${count(rowsOf(177))} rows a side): ${found.missing.join(", ")} in ${found.elapsedMs} ms, ${found.segmentQueries} checksum queries a side, ${found.keysRead} keys read`,
        );
      }
    }
    say();
    for (const line of figures) say(line);
  } finally {
    await cleanup.run();
  }
}

await main();
