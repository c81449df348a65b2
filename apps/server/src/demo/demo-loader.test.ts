import type { FastifyInstance } from "fastify";
import { factOf, stepsOf, TEXT_REFS, textsOfResult, textsPartitionOf } from "../db/results-sql.js";
import { partitionName } from "../modules/storage/partitions.repo.js";
import {
  TraceabilityMatrixSchema,
  type Alias,
  type AliasSuggestion,
  type HistoryEntry,
} from "@assay/core";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp } from "../../test/build-test-app.js";
import { createTestDatabase, type TestDatabase } from "../../test/test-database.js";
import { ORDERS_FILE, renamedTestRuns } from "./demo-aliases.js";
import { loadDemo, type DemoLoadOutcome } from "./demo-loader.js";
import { buildPlan } from "./demo-plan.js";
import { DAILY_EXECUTOR, RERUN_EXECUTOR } from "./demo-vocabulary.js";

// A small demo: three days, forty tests. Every pattern must still show up at this size.
const NOW = new Date("2026-03-10T15:00:00Z");
const SMALL = { days: 3, tests: 40, seed: 7, now: NOW };
const silent = pino({ level: "silent" });

let database: TestDatabase;
let app: FastifyInstance;
let outcome: DemoLoadOutcome;

beforeAll(async () => {
  database = await createTestDatabase();
  ({ app } = await buildTestApp(database.db));
  outcome = await loadDemo({ app, db: database.db, log: silent, plan: SMALL });
}, 60_000);

afterAll(async () => {
  await app.close();
  await database.drop();
});

async function rows<T>(sql: string, params: unknown[] = []): Promise<T[]> {
  return (await database.db.pool.query(sql, params)).rows as T[];
}

async function one<T>(sql: string, params: unknown[] = []): Promise<T> {
  return (await rows<T>(sql, params))[0]!;
}

const FAILED = "r.status = 'failed' AND r.error_message NOT LIKE '%Pending reason%'";

/** Final results of each test, newest first, as the history screen lists them. */
const HISTORY = `
  SELECT r.test_id, t.family, 'all' AS series, ${FAILED} AS failed,
         row_number() OVER (PARTITION BY r.test_id ORDER BY r.start_time DESC, r.id DESC) AS n
  FROM results r JOIN tests t ON t.id = r.test_id WHERE r.is_final`;

/** The same per site or environment, over the daily robot's runs only: one entry per day. */
const DAILY_SERIES = `
  SELECT r.test_id, t.family, coalesce(runs.nora_site, runs.env) AS series, ${FAILED} AS failed,
         row_number() OVER (PARTITION BY r.test_id, coalesce(runs.nora_site, runs.env)
                            ORDER BY r.start_time DESC, r.id DESC) AS n
  FROM results r JOIN tests t ON t.id = r.test_id JOIN runs ON runs.id = r.run_id
  WHERE r.is_final AND runs.executor = $1`;

describe("loadDemo", () => {
  it("posts runs of every family, dated over the plan's days and never in the future", async () => {
    expect(outcome.loaded).toBe(true);
    const plan = buildPlan(SMALL);
    const families = await rows<{ family: string; n: number }>(
      "SELECT family, count(*)::int AS n FROM runs GROUP BY family ORDER BY family",
    );
    expect(families.map((f) => f.family)).toEqual(["backend", "frontend", "load"]);
    const renamed = renamedTestRuns(NOW).uploads.length;
    expect(families.reduce((sum, f) => sum + f.n, 0)).toBe(plan.runs.length + renamed);
    const frontend = await one<{ legacy: number; next_gen: number; china: number; days: number }>(
      `SELECT count(*) FILTER (WHERE NOT is_next_gen)::int AS legacy,
              count(*) FILTER (WHERE is_next_gen)::int AS next_gen,
              count(*) FILTER (WHERE is_china_region)::int AS china,
              count(DISTINCT date_trunc('day', created_at))::int AS days
       FROM runs WHERE family = 'frontend'`,
    );
    expect(frontend).toMatchObject({ days: 3 });
    expect(frontend.legacy).toBeGreaterThan(0);
    expect(frontend.next_gen).toBeGreaterThan(0);
    expect(frontend.china).toBeGreaterThan(0);
    const latest = await one<{ created: Date; finished: Date }>(
      "SELECT max(created_at) AS created, max(finished_at) AS finished FROM runs",
    );
    expect(latest.created.getTime()).toBeLessThanOrEqual(NOW.getTime());
    expect(latest.finished.getTime()).toBeLessThanOrEqual(NOW.getTime());
    const distinctTests = await one<{ n: number }>(
      "SELECT count(*)::int AS n FROM tests WHERE file IS DISTINCT FROM $1",
      [ORDERS_FILE],
    );
    expect(distinctTests.n).toBe(SMALL.tests);
  });

  it("leaves each run's counts equal to its stored results", async () => {
    const mismatched = await rows(
      `SELECT runs.test_run_key FROM runs
       LEFT JOIN LATERAL (
         SELECT count(*)::int AS total,
                count(*) FILTER (WHERE status = 'passed')::int AS passed,
                count(*) FILTER (WHERE status = 'failed' AND error_message NOT LIKE '%Pending reason%')::int AS failed
         FROM results WHERE run_id = runs.id AND is_final
       ) c ON true
       WHERE runs.family <> 'load'
         AND (runs.total, runs.passed, runs.failed) IS DISTINCT FROM (c.total, c.passed, c.failed)`,
    );
    expect(mismatched).toEqual([]);
    const stored = await one<{ results: number; runs: number; attachments: number }>(
      `SELECT (SELECT count(*) FROM results)::int AS results, (SELECT count(*) FROM runs)::int AS runs,
              (SELECT count(*) FROM attachments)::int AS attachments`,
    );
    expect(outcome).toMatchObject(stored);
    const load = await rows<{ stats: number; report_location: string; started_at: Date }>(
      `SELECT (SELECT count(*) FROM load_stats s WHERE s.run_id = runs.id)::int AS stats,
              report_location, started_at FROM runs WHERE family = 'load'`,
    );
    for (const run of load) {
      expect(run.stats).toBeGreaterThan(1);
      expect(run.report_location).toMatch(/^\/v1\/objects\//);
      expect(run.started_at).toBeInstanceOf(Date);
    }
  });

  it("holds new failures and three-day failures, per daily series and in plain history", async () => {
    for (const history of [DAILY_SERIES, HISTORY]) {
      const newFailures = await rows<{ family: string }>(
        `WITH h AS (${history})
         SELECT latest.family FROM h latest
         LEFT JOIN h previous
           ON previous.test_id = latest.test_id AND previous.series = latest.series AND previous.n = 2
         WHERE latest.n = 1 AND latest.failed AND NOT coalesce(previous.failed, false)`,
        history === DAILY_SERIES ? [DAILY_EXECUTOR] : [],
      );
      expect(newFailures.some((f) => f.family === "frontend")).toBe(true);
      if (history === DAILY_SERIES)
        expect(newFailures.some((f) => f.family === "backend")).toBe(true);
      const threeDays = await rows(
        `WITH h AS (${history})
         SELECT test_id FROM h WHERE n <= 3 GROUP BY test_id, series
         HAVING count(*) FILTER (WHERE failed) = 3`,
        history === DAILY_SERIES ? [DAILY_EXECUTOR] : [],
      );
      expect(threeDays.length).toBeGreaterThan(0);
    }
  });

  it("has flaky results, '@unstable' tests, tickets and pending reasons", async () => {
    const flaky = await one<{ n: number }>(
      "SELECT count(*)::int AS n FROM results WHERE flaky AND is_final",
    );
    expect(flaky.n).toBeGreaterThan(0);
    const unstable = await rows<{ test_id: string; known: boolean; failed: boolean }>(
      `SELECT tt.test_id, EXISTS (SELECT 1 FROM tests WHERE id = tt.test_id) AS known,
              EXISTS (SELECT 1 FROM results r WHERE r.test_id = tt.test_id AND r.status = 'failed') AS failed
       FROM tagged_tests tt JOIN tags ON tags.id = tt.tag_id WHERE tags.name = '@unstable'`,
    );
    expect(unstable.length).toBeGreaterThan(0);
    expect(unstable.every((t) => t.known)).toBe(true);
    expect(unstable.some((t) => t.failed)).toBe(true);
    const messages = await one<{ tickets: number; pending: number; pending_runs: number }>(
      `SELECT count(*) FILTER (WHERE error_message ~* 'nxl-\\d+')::int AS tickets,
              count(*) FILTER (WHERE error_message ~ 'Pending reason == \\S')::int AS pending,
              (SELECT count(*) FROM runs WHERE pending > 0)::int AS pending_runs
       FROM results`,
    );
    expect(messages.tickets).toBeGreaterThan(0);
    expect(messages.pending).toBeGreaterThan(0);
    expect(messages.pending_runs).toBeGreaterThan(0);
  });

  it("fills the browser version and platform of every UI result, as real reporters do", async () => {
    // Stored once per tuple (migration 0222), as ingestion stores every result.
    const ui = await one<{ n: number; without: number; inline: number }>(
      `SELECT count(*)::int AS n,
              count(*) FILTER (WHERE ${factOf("r", "chrome_version")} IS NULL
                                  OR ${factOf("r", "platform")} IS NULL)::int AS without,
              count(*) FILTER (WHERE r.facts_id IS NULL)::int AS inline
       FROM results r JOIN runs ON runs.id = r.run_id WHERE runs.family = 'frontend'`,
    );
    expect(ui.n).toBeGreaterThan(0);
    expect(ui.without).toBe(0);
    expect(ui.inline).toBe(0);
  });

  it("tags its tests as a team would: a handful of dynamic tags of different sizes", async () => {
    const tags = await rows<{ name: string; n: number }>(
      `SELECT tags.name, count(tt.test_id)::int AS n
       FROM tags JOIN tagged_tests tt ON tt.tag_id = tags.id GROUP BY tags.name ORDER BY n DESC`,
    );
    expect(tags.length).toBeGreaterThanOrEqual(4);
    expect(tags.map((t) => t.name)).toContain("@unstable");
    expect(new Set(tags.map((t) => t.n)).size).toBeGreaterThanOrEqual(3);
    const unknown = await one<{ n: number }>(
      "SELECT count(*)::int AS n FROM tagged_tests tt WHERE NOT EXISTS (SELECT 1 FROM tests WHERE id = tt.test_id)",
    );
    expect(unknown.n).toBe(0);
  });

  it("has a renamed test aliased at upload and a rename suggested, each history across names", async () => {
    const aliases: Alias[] = (await app.inject({ method: "GET", url: "/v1/test-aliases" })).json();
    expect(aliases).toMatchObject([
      {
        test: { title: "rejects an empty cart" },
        canonical: { title: "refuses to check out an empty cart" },
        source: "stable_id",
      },
    ]);
    // Suggestions are searched by a job after the upload commits (aliases.jobs.ts).
    const suggested = async (): Promise<AliasSuggestion[]> =>
      (await app.inject({ method: "GET", url: "/v1/test-aliases/suggestions" })).json();
    await expect.poll(async () => (await suggested()).length, { timeout: 30_000 }).toBe(1);
    const suggestions = await suggested();
    expect(suggestions).toMatchObject([
      {
        test: { title: "filters orders by status" },
        canonical: { title: "lists orders by status" },
      },
    ]);
    const history: HistoryEntry[] = (
      await app.inject({ method: "GET", url: `/v1/history/${aliases[0]!.canonical.id}` })
    ).json();
    expect(history).toHaveLength(3);
  });

  it("imports its requirements file, so the Traceability Matrix shows computed coverage", async () => {
    const res = await app.inject({ method: "GET", url: "/v1/traceability-matrix" });
    const matrix = TraceabilityMatrixSchema.parse(res.json());
    expect(matrix.source).toMatchObject({ kind: "file", fileName: "demo-requirements.json" });
    const covered = matrix.rows.filter((row) => row.testRuns.length > 0);
    expect(covered.length).toBeGreaterThan(0);
    // Some requirements no test covers yet, and some have linked bugs.
    expect(covered.length).toBeLessThan(matrix.rows.length);
    expect(matrix.rows.some((row) => row.linkedBugs.length > 0)).toBe(true);
    const statuses = new Set(covered.flatMap((row) => row.testRuns.map((t) => t.status)));
    expect(statuses).toContain("passed");
    expect(statuses).toContain("failed");
  });

  it("stores PNG screenshots, before steps and API requests", async () => {
    const shot = await one<{ object_key: string; n: number }>(
      `SELECT min(object_key) AS object_key, count(*)::int AS n
       FROM attachments WHERE content_type = 'image/png'`,
    );
    expect(shot.n).toBeGreaterThan(0);
    const res = await app.inject({ method: "GET", url: `/v1/objects/${shot.object_key}` });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.subarray(0, 8)).toEqual(
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    );
    const steps = await one<{ n: number }>(
      `SELECT count(*)::int AS n FROM results r
       WHERE jsonb_array_length(${stepsOf("r", true)}) > 0 AND jsonb_array_length(${stepsOf("r")}) > 0`,
    );
    expect(steps.n).toBeGreaterThan(0);
    const request = await one<Record<string, unknown>>(
      "SELECT method, url, status, response_time_ms FROM api_requests LIMIT 1",
    );
    expect(request).toMatchObject({
      method: expect.any(String),
      url: expect.stringMatching(/^https:\/\//),
      status: expect.any(Number),
      response_time_ms: expect.any(Number),
    });
  });

  it("runs as the daily robot, the rerun-failed executor and people", async () => {
    const executors = (await rows<{ executor: string }>("SELECT DISTINCT executor FROM runs")).map(
      (r) => r.executor,
    );
    expect(executors).toEqual(expect.arrayContaining([DAILY_EXECUTOR, RERUN_EXECUTOR]));
    expect(executors.some((e) => e.endsWith("@example.com"))).toBe(true);
    const reruns = await one<{ n: number; failed_daily: number }>(
      `SELECT count(*)::int AS n,
              (SELECT count(*) FROM runs WHERE executor = $1 AND family = 'frontend' AND failed > 0)::int AS failed_daily
       FROM runs WHERE executor = $2`,
      [DAILY_EXECUTOR, RERUN_EXECUTOR],
    );
    expect(reruns.n).toBe(reruns.failed_daily);
  });

  it("revokes its token and says the data is demo data", async () => {
    const tokens = await rows<{ revoked_at: Date | null }>("SELECT revoked_at FROM service_tokens");
    expect(tokens.length).toBe(1);
    expect(tokens[0]!.revoked_at).toBeInstanceOf(Date);
    const res = await app.inject({ method: "GET", url: "/v1/instance" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ demo: true, demo_loaded_at: expect.any(String) });
  });

  it("records the OQ build of a stage NextGen run for the Nora Releases report", async () => {
    const builds = await rows<{ key: string; release: string; status: string; run: string }>(
      `SELECT b.test_run_key AS key, b.payload->>'jiraRelease' AS release,
              b.build_status AS status, runs.nora_site AS run
       FROM builds b LEFT JOIN runs ON runs.test_run_key = b.test_run_key
       WHERE b.mode = 'oq_test'`,
    );
    expect(builds).toEqual([
      {
        key: expect.any(String),
        release: "7.2.0",
        status: "SUCCEEDED",
        run: "stage.nextgen.example.com",
      },
    ]);
  });

  it("keeps its texts in the months of the results that refer to them, and no others", async () => {
    // Uploaded today, dated in March: the texts went to March, none is left in the upload's month.
    const texts = await rows<{ month: Date; n: number; unreferenced: number }>(
      `SELECT t.month, count(*)::int AS n,
              count(*) FILTER (WHERE NOT EXISTS (
                SELECT 1 FROM results r WHERE ${textsOfResult("r", "t")}))::int AS unreferenced
       FROM result_texts t GROUP BY 1`,
    );
    expect(texts.map((t) => t.month.toISOString())).toEqual(["2026-03-01T00:00:00.000Z"]);
    expect(texts[0]!.n).toBeGreaterThan(0);
    expect(texts[0]!.unreferenced).toBe(0);
    const missing = await one<{ n: number }>(
      `SELECT count(*)::int AS n FROM results r
       CROSS JOIN LATERAL unnest(ARRAY[${TEXT_REFS.map((ref) => `r.${ref}`).join(", ")}]) AS ref
       WHERE ref IS NOT NULL AND NOT EXISTS (SELECT 1 FROM result_texts t
         WHERE t.hash = ref AND t.month = date_trunc('month', r.run_at, 'UTC'))`,
    );
    expect(missing.n).toBe(0);
    // The month the runs were uploaded in, emptied by their dating, was rewritten (VACUUM FULL
    // gives a table new files: relfilenode no longer its oid). What the rewrite returns depends
    // on the transactions running meanwhile, in any database of the cluster (the snapshots of
    // this one's take their oldest), so the suite's shared cluster measures no size here.
    const uploadMonth = partitionName(new Date());
    const rewritten = await rows<{ name: string; rewritten: boolean }>(
      `SELECT relname AS name, relfilenode <> oid AS rewritten FROM pg_class
       WHERE relname IN ($1, $2) ORDER BY 1`,
      [uploadMonth, textsPartitionOf(uploadMonth)],
    );
    expect(rewritten).toEqual([
      { name: textsPartitionOf(uploadMonth), rewritten: true },
      { name: uploadMonth, rewritten: true },
    ]);
  });

  it("does nothing when the store already has runs", async () => {
    const before = await one(
      "SELECT (SELECT count(*) FROM runs) AS runs, (SELECT count(*) FROM service_tokens) AS tokens",
    );
    const again = await loadDemo({ app, db: database.db, log: silent, plan: SMALL });
    expect(again).toEqual({ loaded: false, reason: "store_not_empty" });
    const after = await one(
      "SELECT (SELECT count(*) FROM runs) AS runs, (SELECT count(*) FROM service_tokens) AS tokens",
    );
    expect(after).toEqual(before);
  });
});
