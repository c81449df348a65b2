import { performance } from "node:perf_hooks";
import pg from "pg";
import { migrate, type Migration } from "../db/migrate.js";
import { ensureMonthPartitions } from "../modules/storage/partitions.repo.js";
import { count, seconds, step } from "./output.js";
import {
  COUNTS,
  FACTS,
  factsOfResults,
  FAILURE_TEXTS,
  FIRST_TEST_ID,
  LOG,
  RESULTS,
  RUNS,
  SCREENSHOTS,
  SHAPE,
  stackOf,
  stepsOf,
  TEXTS,
  textKey,
} from "./query-data-sql.js";

/*
 * A database as a year and a half of daily UI runs leaves it: `days` runs of about `perRun`
 * (the daily robot's, on the example catalogue's Legacy STAGE site, so the Dashboard charts them)
 * tests (growing ±2.5% over the period), generated in SQL with generate_series and written with
 * INSERT ... SELECT in two sessions at once. The secondary indexes, the unique constraint and the
 * foreign keys of `results` are dropped for the load and built again after it, with exactly the
 * definitions the migrations gave them. Failed results get a screenshot row in attachments. Then
 * VACUUM ANALYZE: the state autovacuum leaves.
 */

export interface DatasetOptions {
  days: number;
  perRun: number;
  /** The bench runs this cluster: its WAL settings may be raised for the load. */
  ownCluster: boolean;
  /** The migrations to apply first (all by default): an older layout, to time a migration. */
  migrations?: Migration[];
}

export interface Dataset {
  runs: number;
  results: number;
  tests: number;
  tableBytes: number;
  /** pg_database_size: every table and index. */
  databaseBytes: number;
  loadMs: number;
  indexMs: number;
  vacuumMs: number;
  latestRunKey: string;
  latestRunId: number;
  latestRunResults: number;
  /** A test present in every run. */
  historyTestId: number;
}

const RUNS_PER_CHUNK = 10;

interface Definitions {
  constraints: { name: string; def: string; type: string }[];
  indexes: { name: string; def: string }[];
}

/** The unique and foreign-key constraints and plain indexes of results (the primary key stays). */
async function secondaryDefinitions(client: pg.PoolClient): Promise<Definitions> {
  const constraints = await client.query<{ name: string; def: string; type: string }>(
    `SELECT conname AS name, pg_get_constraintdef(oid) AS def, contype AS type
     FROM pg_constraint WHERE conrelid = 'results'::regclass AND contype IN ('u', 'f')
     ORDER BY contype DESC, conname`,
  );
  const indexes = await client.query<{ name: string; def: string }>(
    `SELECT i.relname AS name, pg_get_indexdef(i.oid) AS def
     FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
     WHERE x.indrelid = 'results'::regclass
       AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid)
     ORDER BY i.relname`,
  );
  return { constraints: constraints.rows, indexes: indexes.rows };
}

async function timed(label: string, work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  const elapsed = performance.now() - started;
  step(`  ${label}: ${seconds(elapsed)}`);
  return elapsed;
}

/**
 * What the migrated layout has: results' partitions (0191), texts stored once (0216), a test's
 * names stored once (0221), a result's run facts stored once (0222).
 */
interface Layout {
  partitioned: boolean;
  texts: boolean;
  names: boolean;
  facts: boolean;
}

async function loadResults(
  pool: pg.Pool,
  firstRun: number,
  lastRun: number,
  { partitioned, texts, names, facts }: Layout,
): Promise<void> {
  const factsSql = factsOfResults(facts);
  const insert = RESULTS.replace("RUN_AT ", partitioned ? "run_at, " : "")
    .replace("RUN_AT_VALUE ", partitioned ? "x.run_at, " : "")
    .replace("NAMES_VALUES", names ? "NULL, NULL, NULL" : "x.name, x.suite_path, x.file")
    .replace("FACTS_COLUMNS", factsSql.columns)
    .replace("FACTS_VALUES", factsSql.values)
    .replace("STEPS_COLUMN", texts ? "steps_ref" : "json_steps")
    .replace("STEPS_VALUE", texts ? textKey(stepsOf("x.n")) : `${stepsOf("x.n")}::jsonb`)
    .replace("STACK_COLUMN", texts ? "stack_ref" : "error_stack")
    .replace("LOG_COLUMN", texts ? "log_ref" : "console_log")
    .replace("STACK_VALUE", texts ? textKey(stackOf("x.file", "x.n")) : stackOf("x.file", "x.n"))
    .replace("LOG_VALUE", texts ? textKey(LOG) : LOG);
  const chunks: [number, number][] = [];
  for (let from = firstRun; from <= lastRun; from += RUNS_PER_CHUNK) {
    chunks.push([from, Math.min(from + RUNS_PER_CHUNK - 1, lastRun)]);
  }
  let done = 0;
  let shown = 0;
  const worker = async () => {
    for (let chunk = chunks.shift(); chunk; chunk = chunks.shift()) {
      if (texts) await pool.query(TEXTS, chunk);
      if (facts) await pool.query(FACTS, chunk);
      await pool.query(insert, chunk);
      done += chunk[1] - chunk[0] + 1;
      const percent = Math.floor((done * 10) / (lastRun - firstRun + 1)) * 10;
      if (percent > shown) {
        shown = percent;
        step(`  results: ${percent}% of the runs written`);
      }
    }
  };
  // Two sessions: one per core.
  await Promise.all([worker(), worker()]);
  if (texts) await pool.query(FAILURE_TEXTS);
}

/** Fills the empty, migrated-on-the-spot database at `url` and returns what it holds. */
export async function loadDataset(url: string, options: DatasetOptions): Promise<Dataset> {
  const pool = new pg.Pool({ connectionString: url, max: 2, application_name: "assay-bench" });
  pool.on("error", () => undefined);
  try {
    await migrate(pool, options.migrations);
    if (options.ownCluster) {
      // A scratch cluster: fewer checkpoints while gigabytes of WAL go by.
      await pool.query("ALTER SYSTEM SET max_wal_size = '16GB'");
      await pool.query("ALTER SYSTEM SET checkpoint_timeout = '30min'");
      await pool.query("SELECT pg_reload_conf()");
    }
    const client = await pool.connect();
    let defs: Definitions;
    let layout: Layout = { partitioned: false, texts: false, names: false, facts: false };
    try {
      defs = await secondaryDefinitions(client);
      for (const c of defs.constraints)
        await client.query(`ALTER TABLE results DROP CONSTRAINT ${c.name}`);
      for (const i of defs.indexes) await client.query(`DROP INDEX ${i.name}`);
      await client.query(SHAPE, [options.perRun * 2]);
      await client.query(RUNS, [options.days, options.perRun, Math.round(options.perRun * 0.05)]);
      // The months of results' partitions that the runs' dates need (the server makes only the
      // current month's and ahead).
      const { rows: dates } = await client.query<{
        first: Date;
        last: Date;
        parted: boolean;
        texts: boolean;
        names: boolean;
        facts: boolean;
      }>(
        `SELECT min(created_at) AS first, max(created_at) AS last,
                (SELECT relkind = 'p' FROM pg_class WHERE oid = 'results'::regclass) AS parted,
                to_regclass('result_texts') IS NOT NULL AS texts,
                EXISTS (SELECT FROM information_schema.columns
                        WHERE table_name = 'tests' AND column_name = 'name') AS names,
                to_regclass('result_facts') IS NOT NULL AS facts
         FROM runs`,
      );
      const { parted, texts, names, facts } = dates[0]!;
      layout = { partitioned: parted, texts, names, facts };
      if (layout.partitioned) await ensureMonthPartitions(client, dates[0]!.first, dates[0]!.last);
    } finally {
      client.release();
    }
    const { rows: span } = await pool.query<{ first: string; last: string; tests: number }>(
      "SELECT min(id) AS first, max(id) AS last, max(total) AS tests FROM runs",
    );
    const tests = span[0]!.tests;
    // The shape's columns of the same names, where `tests` holds them.
    const names = layout.names ? ", name, suite_path" : "";
    await pool.query(
      `INSERT INTO tests (id, family, title, file, created_at${names})
       SELECT ${FIRST_TEST_ID} + n, 'frontend', name, file, now() - interval '2 years'${names}
       FROM bench_test_shape WHERE n <= $1`,
      [tests],
    );
    step(`writing ${options.days} runs of ~${count(options.perRun)} results (two sessions)`);
    const loadMs = await timed("results written", () =>
      loadResults(pool, Number(span[0]!.first), Number(span[0]!.last), layout),
    );
    step("building the indexes and constraints of results again");
    const indexStarted = performance.now();
    const index = await pool.connect();
    try {
      await index.query("SET maintenance_work_mem = '1GB'");
      for (const c of defs.constraints) {
        await timed(c.name, () =>
          index.query(`ALTER TABLE results ADD CONSTRAINT ${c.name} ${c.def}`),
        );
      }
      // A partitioned table's index is defined ON ONLY the parent; made on the parent, it is
      // made on every partition.
      for (const i of defs.indexes)
        await timed(i.name, () => index.query(i.def.replace(" ON ONLY ", " ON ")));
    } finally {
      index.release();
    }
    const indexMs = performance.now() - indexStarted;
    await timed("a screenshot per failed result (attachments)", () => pool.query(SCREENSHOTS));
    const vacuumMs = await timed("per-run counts, VACUUM ANALYZE", async () => {
      await pool.query(COUNTS);
      await pool.query("DROP TABLE bench_test_shape");
      await pool.query(
        `SELECT setval(pg_get_serial_sequence('results', 'id'), (SELECT max(id) FROM results)),
                setval('test_id_seq', (SELECT max(id) FROM tests))`,
      );
      await pool.query("VACUUM (ANALYZE) results");
      if (layout.texts) await pool.query("VACUUM (ANALYZE) result_texts");
      if (layout.facts) await pool.query("VACUUM (ANALYZE) result_facts");
      await pool.query("VACUUM (ANALYZE) runs");
      await pool.query("VACUUM (ANALYZE) tests");
      await pool.query("VACUUM (ANALYZE) attachments");
      // The runs counted as flaky tests would have counted them at their upload: its backfill
      // of 730 generated runs (about 10 minutes of both cores) would run beside the timed
      // reads, none of which reads its windows. Triage's and Top Fails' first counts do feed
      // them: the bench waits for those (query-bench.ts).
      const { rows: flaky } = await pool.query("SELECT to_regclass('flaky_runs') AS t");
      if (flaky[0].t) await pool.query("INSERT INTO flaky_runs (run_id) SELECT id FROM runs");
    });
    const { rows } = await pool.query<{
      key: string;
      id: string;
      total: number;
      results: string;
      bytes: string;
      dbbytes: string;
      runs: number;
    }>(
      `SELECT r.test_run_key AS key, r.id, r.total,
              (SELECT sum(total) FROM runs) AS results,
              (SELECT sum(pg_total_relation_size(oid)) FROM pg_class WHERE oid = 'results'::regclass
                 OR oid IN (SELECT inhrelid FROM pg_inherits WHERE inhparent = 'results'::regclass)) AS bytes,
              pg_database_size(current_database()) AS dbbytes,
              (SELECT count(*)::int FROM runs) AS runs
       FROM runs r ORDER BY r.created_at DESC LIMIT 1`,
    );
    const latest = rows[0]!;
    return {
      runs: latest.runs,
      results: Number(latest.results),
      tests,
      tableBytes: Number(latest.bytes),
      databaseBytes: Number(latest.dbbytes),
      loadMs,
      indexMs,
      vacuumMs,
      latestRunKey: latest.key,
      latestRunId: Number(latest.id),
      latestRunResults: latest.total,
      historyTestId: FIRST_TEST_ID + 1,
    };
  } finally {
    await pool.end();
  }
}
