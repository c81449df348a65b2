import { performance } from "node:perf_hooks";
import pg from "pg";
import { migrate, type Migration } from "../db/migrate.js";
import { ensureMonthPartitions } from "../modules/storage/partitions.repo.js";
import { count, seconds, step } from "./output.js";

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

const FIRST_TEST_ID = 1_000_000;
const RUNS_PER_CHUNK = 10;

const SHAPE = `
  CREATE UNLOGGED TABLE bench_test_shape AS
  SELECT n,
         substr(md5(n::text), 1, 16) AS trt_id,
         (ARRAY['shows','updates','rejects','accepts','keeps','sorts','filters','opens'])[1 + n % 8]
           || ' ' || (ARRAY['the total','a coupon','the address form','the basket badge','a saved card'])[1 + (n / 8) % 5]
           || ' ' || (ARRAY['on a slow network','after a reload','for a guest','in dark mode','twice'])[1 + (n / 40) % 5]
           || ' (' || n || ')' AS name,
         ARRAY[a || '-m' || (n / 500), a || '-flow-' || ((n / 25) % 20)] AS suite_path,
         'tests/' || a || '-m' || (n / 500) || '/' || a || '-flow-' || ((n / 25) % 20) || '.spec.ts' AS file
  FROM generate_series(1, $1::int) AS n,
       LATERAL (SELECT (ARRAY['checkout','cart','search','accounts','payments','catalogue',
                              'shipping','reviews','wishlist','notifications'])[1 + (n / 500) % 10] AS a) area`;

const RUNS = `
  INSERT INTO runs (test_run_key, family, test_run_name, state, format, nora_site, executor, branch,
                    commit, total, started_at, finished_at, created_at)
  SELECT 'frontend-' || to_char(d, 'YYYYMMDD') || '-nightly', 'frontend',
         to_char(d, 'YYYY-MM-DD') || ' nightly', 'finished', 'junit', 'stage.legacy.example.com',
         'daily robot executor', 'main', md5(i::text),
         $2::int - $3::int / 2 + (i * $3::int) / greatest($1::int - 1, 1),
         d, d + interval '90 minutes', d
  FROM generate_series(0, $1::int - 1) AS i,
       LATERAL (SELECT date_trunc('day', now()) - make_interval(days => $1::int - i) + interval '2 hours' AS d) x
  ORDER BY i`;

/**
 * A test's 3 steps (the same in every run, one text per test), as the JSON text ingestion
 * stores: `n` is the test's number.
 */
/** A text's key in result_texts as ingestion makes it (result-texts.ts): SHA-256's first 128 bits. */
const textKey = (text: string) =>
  `encode(substr(sha256(convert_to(${text}, 'UTF8')), 1, 16), 'hex')::uuid`;

const stepsOf = (n: string) =>
  `('[{"action":"open the page","passed":true},{"action":"fill the form","passed":true},` +
  `{"action":"check result ' || lpad((${n} % 100000)::text, 5, '0') || '","passed":true}]')`;

/**
 * The texts of the runs $1..$2 in their month of result_texts, each once (migration 0216), as
 * ingestion stores them; results refer to them by their key (textKey).
 */
const TEXTS = `
  INSERT INTO result_texts (month, hash, body)
  SELECT DISTINCT date_trunc('month', r.created_at, 'UTC'), ${textKey(stepsOf("s.n"))},
         ${stepsOf("s.n")}
  FROM runs r JOIN bench_test_shape s ON s.n <= r.total
  WHERE r.id BETWEEN $1 AND $2
  ORDER BY 2
  ON CONFLICT DO NOTHING`;

/** A test's stack when it fails (the same in each run): `file` and `n` are the test's. */
const stackOf = (file: string, n: string) =>
  `('AssertionError: expected the badge to show the total'
    || E'\\n    at Context.<anonymous> (' || ${file} || ':' || (${n} % 400) || ':13)'
    || repeat(E'\\n    at runTest (node_modules/mocha/lib/runner.js:412:21)', 8))`;
const LOG = `repeat(E'[00:01.123] GET /api/cart/1234 -> 500\\n', 4)`;

/**
 * The stacks and logs of the failures in their month's texts, once every run is written (the
 * file from the test's row: a result's own is NULL where it is its test's, migration 0221).
 */
const FAILURE_TEXTS = `
  INSERT INTO result_texts (month, hash, body)
  SELECT DISTINCT date_trunc('month', r.run_at, 'UTC'), t.hash, t.body
  FROM results r JOIN tests test ON test.id = r.test_id,
       LATERAL (VALUES (r.stack_ref, ${stackOf("test.file", `(r.test_id - ${FIRST_TEST_ID})`)}),
                       (r.log_ref, ${LOG})) AS t(hash, body)
  WHERE r.status = 'failed'
  ORDER BY 2
  ON CONFLICT DO NOTHING`;

// About 10% failures: one test in 20 fails half the time (the Top Fails), the others 7.5%.
// RUN_AT: the partition key where the layout has one (migration 0191; not in an older one).
// NAMES_VALUES: NULL where `tests` holds the test's names (0221), as ingestion writes a test
// known by its identity; the bench's tests are all the same in every run.
const RESULTS = `
  INSERT INTO results (id, run_id, RUN_AT test_run_test_id, test_id, status, failure_type, name, suite_path,
                       file, error_message, STACK_COLUMN, LOG_COLUMN, tags, start_time, end_time,
                       duration_ms, nora_site, version, commit_hash, chrome_version, platform,
                       executor, branch, STEPS_COLUMN)
  SELECT x.run_id * 100000 + x.n, x.run_id, RUN_AT_VALUE x.trt_id, ${FIRST_TEST_ID} + x.n, x.status,
         CASE WHEN x.status = 'failed' THEN CASE WHEN x.n % 5 = 0 THEN 'error' ELSE 'failure' END END,
         NAMES_VALUES,
         CASE WHEN x.status = 'failed' THEN 'AssertionError: expected "' || (x.n % 97) || '" to equal "'
              || (x.n % 89) || '" & the badge to show <' || (x.n % 9) || '>' END,
         CASE WHEN x.status = 'failed' THEN STACK_VALUE END,
         CASE WHEN x.status = 'failed' THEN LOG_VALUE END,
         CASE WHEN x.n % 10 = 0 THEN '{smoke}'::text[] ELSE '{}'::text[] END,
         x.started + x.n * interval '350 ms',
         x.started + x.n * interval '350 ms' + x.dur * interval '1 ms',
         x.dur, 'stage.example.com', '5.' || (x.run_id / 30), x.commit, '126.0.6478.126', 'linux',
         'ci-runner-' || (x.n % 8), 'main',
         STEPS_VALUE
  FROM (
    SELECT r.id AS run_id, r.created_at AS run_at, r.started_at AS started, r.commit, s.n, s.trt_id, s.name, s.suite_path, s.file,
           CASE WHEN random() < CASE WHEN s.n % 20 = 0 THEN 0.5 ELSE 0.075 END THEN 'failed'
                WHEN s.n % 40 = 3 THEN 'skipped' ELSE 'passed' END AS status,
           (50 + random() * 5000)::int AS dur
    FROM runs r JOIN bench_test_shape s ON s.n <= r.total
    WHERE r.id BETWEEN $1 AND $2
  ) x`;

// UI failures come with a screenshot: the run screen shows each result's last one.
const SCREENSHOTS = `
  INSERT INTO attachments (result_id, name, content_type, taken_at, object_key, size)
  SELECT id, 'screenshot', 'image/png', end_time, 'objects/' || md5(id::text) || '.png', 48000
  FROM results WHERE status = 'failed'`;

const COUNTS = `
  UPDATE runs r SET total = c.total, passed = c.passed, failed = c.failed, pending = c.pending,
                    flaky = 0, duration_ms = c.duration_ms, finished_at = c.finished_at
  FROM (SELECT run_id, count(*)::int AS total,
               count(*) FILTER (WHERE status = 'passed')::int AS passed,
               count(*) FILTER (WHERE status = 'failed')::int AS failed,
               count(*) FILTER (WHERE status = 'skipped')::int AS pending,
               sum(duration_ms) AS duration_ms, max(end_time) AS finished_at
        FROM results GROUP BY run_id) c
  WHERE c.run_id = r.id`;

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
 * names stored once (0221).
 */
interface Layout {
  partitioned: boolean;
  texts: boolean;
  names: boolean;
}

async function loadResults(
  pool: pg.Pool,
  firstRun: number,
  lastRun: number,
  { partitioned, texts, names }: Layout,
): Promise<void> {
  const insert = RESULTS.replace("RUN_AT ", partitioned ? "run_at, " : "")
    .replace("NAMES_VALUES", names ? "NULL, NULL, NULL" : "x.name, x.suite_path, x.file")
    .replace("RUN_AT_VALUE ", partitioned ? "x.run_at, " : "")
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
    let layout: Layout = { partitioned: false, texts: false, names: false };
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
      }>(
        `SELECT min(created_at) AS first, max(created_at) AS last,
                (SELECT relkind = 'p' FROM pg_class WHERE oid = 'results'::regclass) AS parted,
                to_regclass('result_texts') IS NOT NULL AS texts,
                EXISTS (SELECT FROM information_schema.columns
                        WHERE table_name = 'tests' AND column_name = 'name') AS names
         FROM runs`,
      );
      const { parted, texts, names } = dates[0]!;
      layout = { partitioned: parted, texts, names };
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
      await pool.query("VACUUM (ANALYZE) runs");
      await pool.query("VACUUM (ANALYZE) tests");
      await pool.query("VACUUM (ANALYZE) attachments");
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
