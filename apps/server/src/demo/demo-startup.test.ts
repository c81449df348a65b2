import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import { pino } from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../test/test-database.js";
import { ConfigError, EXAMPLE_CONFIG_PATH, loadConfig } from "../config.js";
import { Jobs } from "../jobs/jobs.js";
import { LocalObjectStore } from "../storage/local-store.js";
import { scheduledBuildLauncher } from "../modules/builds/scheduled-launcher.js";
import { listSettings } from "../modules/settings/settings.service.js";
import { loadSecretKey } from "../secret-key.js";
import { addDemoNotifyRules, DEMO_NOTIFY_RULES } from "./demo-notify.js";
import { addDemoSchedules, demoSchedules } from "./demo-schedules.js";
import { shouldLoadDemo, startDemoLoad } from "./demo-startup.js";

const SMALL = { days: 2, tests: 30, seed: 11, now: new Date("2026-03-10T15:00:00Z") };

let database: TestDatabase | undefined;
let objectsDir: string | undefined;
let jobs: Jobs | undefined;
afterEach(async () => {
  await jobs?.stop();
  await database?.drop();
  if (objectsDir) await rm(objectsDir, { recursive: true, force: true });
  database = undefined;
  objectsDir = undefined;
  jobs = undefined;
});

function capturingLogger() {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString("utf8").split("\n").filter(Boolean)) {
        lines.push(JSON.parse(line) as Record<string, unknown>);
      }
      done();
    },
  });
  return { log: pino({ level: "info" }, sink), lines };
}

async function deps() {
  database = await createTestDatabase();
  objectsDir = await mkdtemp(path.join(tmpdir(), "assay-demo-objects-"));
  const objects = new LocalObjectStore(objectsDir);
  await objects.init();
  const config = loadConfig({ ASSAY_CONFIG: EXAMPLE_CONFIG_PATH, ASSAY_DATA_DIR: objectsDir });
  const logger = capturingLogger();
  jobs = await Jobs.start(database.db.pool, logger.log);
  return { config, db: database.db, objects, jobs, ...logger };
}

async function runCount(): Promise<number> {
  const { rows } = await database!.db.pool.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM runs",
  );
  return rows[0]!.n;
}

describe("ASSAY_DEMO", () => {
  it("is on by default, off with 0, and refuses anything else naming the expected form", () => {
    expect(loadConfig({ ASSAY_CONFIG: EXAMPLE_CONFIG_PATH }).demo).toBe(true);
    expect(loadConfig({ ASSAY_CONFIG: EXAMPLE_CONFIG_PATH, ASSAY_DEMO: "0" }).demo).toBe(false);
    let problems: string[] = [];
    try {
      loadConfig({ ASSAY_CONFIG: EXAMPLE_CONFIG_PATH, ASSAY_DEMO: "yes" });
    } catch (error) {
      problems = (error as ConfigError).problems;
    }
    expect(problems).toEqual([
      'ASSAY_DEMO: expected 1 (load demo data into an empty store) or 0 (off), got "yes"',
    ]);
  });

  it("loads demo data only on the embedded database", () => {
    expect(shouldLoadDemo({ demo: true, databaseUrl: undefined })).toBe(true);
    expect(shouldLoadDemo({ demo: false, databaseUrl: undefined })).toBe(false);
    expect(shouldLoadDemo({ demo: true, databaseUrl: "postgres://db/assay" })).toBe(false);
  });
});

describe("startDemoLoad", () => {
  it("loads in the background and logs its progress and outcome", async () => {
    const { lines, ...d } = await deps();
    const task = startDemoLoad(d, SMALL);
    await task.done;

    expect(await runCount()).toBeGreaterThan(0);
    const messages = lines.map((l) => l.msg);
    // The data harmonization demo may log first; the runs' load starts and ends in order.
    const loading = messages.indexOf("loading demo data (ASSAY_DEMO=0 turns this off)");
    expect(loading).toBeGreaterThanOrEqual(0);
    expect(messages.indexOf("demo data loaded")).toBeGreaterThan(loading);
    // The ingest requests themselves stay out of the server's log.
    expect(messages).not.toContain("incoming request");
    expect(lines.filter((l) => (l.level as number) >= 40)).toEqual([]);
    // The Setting screen's Notifications show the demo's rules: off, named as the demo's, the
    // Slack URL sealed.
    const rules = await d.db.pool.query<{ name: string; is_active: boolean; secret: Buffer }>(
      "SELECT name, is_active, secret FROM notify_rules ORDER BY id",
    );
    expect(rules.rows.map((r) => [r.name.slice(0, 11), r.is_active])).toEqual([
      ["Demo: Slack", false],
      ["Demo: email", false],
    ]);
    expect(rules.rows[0]!.secret.toString("latin1")).not.toContain("slack.invalid");
    // Its Daily Run Scheduler shows the nightly dev runs as schedules: off (no next run, so
    // nothing launches), each with the build its Create Frontend Build dialog would accept.
    const schedules = await listSettings(d.db, true);
    expect(
      schedules.map((s) => [s.name, s.isActive, s.scheduleText, s.nextRuns, s.rerunFailures]),
    ).toEqual([
      ["Demo: Legacy nightly regression on dev.legacy.example.com", 0, "At 01:00 (UTC)", [], true],
      [
        "Demo: NextGen nightly regression on dev1.nextgen.example.com",
        0,
        "At 01:05 (UTC)",
        [],
        true,
      ],
    ]);
    const { catalog, builds } = d.config;
    const launcher = scheduledBuildLauncher({
      db: d.db.kysely,
      catalog,
      builds,
      queueStart: async () => undefined,
    });
    for (const { template } of schedules) expect(() => launcher.check!(template!)).not.toThrow();
    // The demo's runs are dated back (and its archive copies further): each month's results are
    // in the month's partition once the load is over, none left in the default partition.
    const parts = await d.db.pool.query<{ part: string; n: number }>(
      "SELECT tableoid::regclass::text AS part, count(*)::int AS n FROM results GROUP BY 1",
    );
    expect(parts.rows.length).toBeGreaterThan(1);
    expect(parts.rows.filter((row) => row.part === "test_results_pdefault")).toEqual([]);
    // A whole (small) demo load: 19 s alone, past the default 20 s beside other suites.
  }, 60_000);

  it("adds the demo's rules and schedules once, however often a first load starts", async () => {
    const d = await deps();
    const secret = loadSecretKey(d.config);
    for (let start = 0; start < 2; start++) {
      await addDemoNotifyRules({ ...d, secret });
      await addDemoSchedules(d);
    }
    const rules = await d.db.pool.query("SELECT name FROM notify_rules");
    expect(rules.rowCount).toBe(DEMO_NOTIFY_RULES.length);
    expect((await listSettings(d.db, false)).map((s) => s.name)).toEqual(
      demoSchedules().map((s) => s.name),
    );
  });

  it("stops at shutdown without an error, keeping what was loaded", async () => {
    const { lines, ...d } = await deps();
    const task = startDemoLoad(d, SMALL);
    await task.stop();

    expect(lines.some((l) => l.msg === "demo data loaded")).toBe(false);
    expect(lines.filter((l) => (l.level as number) >= 50)).toEqual([]);
    const token = await d.db.pool.query("SELECT 1 FROM service_tokens WHERE revoked_at IS NULL");
    expect(token.rowCount).toBe(0);
  });

  it("logs a failure as an error and settles, so the server keeps running", async () => {
    const { lines, ...d } = await deps();
    await d.db.pool.query("DROP TABLE instance");
    const task = startDemoLoad(d, SMALL);
    await expect(task.done).resolves.toBeUndefined();

    const errors = lines.filter((l) => l.level === 50);
    expect(errors.map((l) => l.msg)).toEqual([
      "loading demo data failed; the server keeps running",
    ]);
  });
});
