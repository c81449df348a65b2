import { loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import pg from "pg";
import { createDb, type Db } from "../db/pool.js";
import { migrate } from "../db/migrate.js";

/*
 * What the single-query benches (run filters, traceability) share: a migrated scratch database
 * made anew on the PostgreSQL named on the command line, and a median-of-10 timer.
 */

export const out = (line: string) => process.stdout.write(`${line}\n`);

/**
 * The database name a bench uses: `variable` when set (another name lets two checkouts measure
 * without dropping each other's), else `fallback`; refused unless a plain lower-case name.
 */
export function scratchName(variable: string, fallback: string, example: string): string {
  const name = process.env[variable] ?? fallback;
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name))
    throw new Error(`${variable}: expected a lower-case database name such as ${example}`);
  return name;
}

/**
 * Drops and creates `name` on the server of the admin URL (argv[2], default the local one),
 * migrates it, runs `fn` on it, then prints the load average (the machine is shared) and closes.
 */
export async function withScratchDatabase(
  name: string,
  fn: (db: Db) => Promise<void>,
): Promise<void> {
  const admin = process.argv[2] ?? "postgres://postgres@127.0.0.1:5432/postgres";
  const root = new pg.Client({ connectionString: admin });
  await root.connect();
  await root.query(`DROP DATABASE IF EXISTS ${name}`);
  await root.query(`CREATE DATABASE ${name}`);
  await root.end();
  const url = new URL(admin);
  url.pathname = `/${name}`;
  const db = createDb(url.toString(), 4);
  try {
    await migrate(db.pool);
    await fn(db);
    out(
      `load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(" ")}`,
    );
  } finally {
    await db.close();
  }
}

/** `fn` timed 10 times after 2 warm-ups: the median and the max, and its last answer. */
export async function timed<T>(
  fn: () => Promise<T>,
): Promise<{ median: number; max: number; last: T }> {
  for (let i = 0; i < 2; i++) await fn();
  const times: number[] = [];
  let last!: T;
  for (let i = 0; i < 10; i++) {
    const t0 = performance.now();
    last = await fn();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return { median: times[5]!, max: times[9]!, last };
}
