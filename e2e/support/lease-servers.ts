import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { makeDataDir, startE2eServer, type E2eServer } from "./server.js";
import { startScratchPostgres, type ScratchPostgres } from "./scratch-postgres.js";

/**
 * Two (or more) real Assay servers (the built CLI) on one PostgreSQL, as a platform team runs
 * them behind a load balancer, with short leases, whose local builds run the builds tests'
 * runner: the lease tests and the chaos campaign (issue 31) kill and restart them.
 */

const repoRoot = fileURLToPath(new URL("../..", import.meta.url));
const RUNNER = ["node", "apps/server/test/fixtures/builds/runner.mjs"];
export const LEASE_SECONDS = 3;
const SECRET_KEY = Buffer.alloc(32, 9).toString("base64");

export interface LeaseCluster {
  url: string;
  client: pg.Client;
  configFile: string;
  /** Folder of the config file and of the servers' data folders, removed by close(). */
  folder: string;
  close(): Promise<void>;
}

/** A scratch database: on TEST_DATABASE_URL's server when set, else a PostgreSQL of its own. */
export async function leaseCluster(): Promise<LeaseCluster> {
  let scratch: ScratchPostgres | undefined;
  let url: string;
  const name = `assay_leases_${randomUUID().replaceAll("-", "").slice(0, 12)}`;
  const admin = process.env.TEST_DATABASE_URL;
  if (admin) {
    const root = new pg.Client({ connectionString: admin });
    await root.connect();
    await root.query(`CREATE DATABASE ${name}`);
    await root.end();
    const parsed = new URL(admin);
    parsed.pathname = `/${name}`;
    url = parsed.toString();
  } else {
    scratch = await startScratchPostgres();
    const root = new pg.Client({ connectionString: scratch.urlFor("postgres") });
    await root.connect();
    await root.query(`CREATE DATABASE ${name}`);
    await root.end();
    url = scratch.urlFor(name);
  }
  const folder = await makeDataDir();
  const local = `{ kind: local, command: ${JSON.stringify(RUNNER)}, requires: [] }`;
  const configFile = path.join(folder, "assay.config.yaml");
  const example = readFileSync(path.join(repoRoot, "assay.config.example.yaml"), "utf8");
  await writeFile(
    configFile,
    `${example}\nbuilds:\n  executors: { frontend: ${local}, china: ${local}, backend: ${local}, load: ${local} }\n`,
  );
  const client = new pg.Client({ connectionString: url });
  return {
    url,
    client,
    configFile,
    folder,
    async close() {
      await client.end().catch(() => undefined);
      if (admin) {
        const root = new pg.Client({ connectionString: admin });
        await root.connect();
        await root.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await root.end();
      }
      await scratch?.destroy();
      await rm(folder, { recursive: true, force: true });
    },
  };
}

/**
 * A server of the cluster, in a data folder of its own inside the cluster's folder: kept across
 * its restarts, removed with the cluster.
 */
export async function leaseServer(cluster: LeaseCluster, dataDir?: string): Promise<E2eServer> {
  return startE2eServer(
    {
      DATABASE_URL: cluster.url,
      ASSAY_CONFIG: cluster.configFile,
      ASSAY_SECRET_KEY: SECRET_KEY,
      ASSAY_SERVER_LEASE_SECONDS: String(LEASE_SECONDS),
      ASSAY_SERVER_HEARTBEAT_SECONDS: "1",
      ASSAY_NAP_MS: "4000",
    },
    { dataDir: dataDir ?? (await serverFolder(cluster)) },
  );
}

async function serverFolder(cluster: LeaseCluster): Promise<string> {
  const dataDir = await mkdtemp(path.join(cluster.folder, "server-"));
  // As makeDataDir's: the embedded PostgreSQL's user must enter it.
  await chmod(dataDir, 0o711);
  return dataDir;
}

export interface BuildState {
  id: number;
  build_status: string;
  runner_boot: string | null;
  external_id: string | null;
  tries: number;
  status_message: string | null;
}

export async function buildState(client: pg.Client, id: number): Promise<BuildState> {
  const { rows } = await client.query(
    "SELECT id::int, build_status, runner_boot, external_id, tries, status_message FROM builds WHERE id = $1",
    [id],
  );
  return rows[0];
}

/** The server ids whose lease runs now. */
export async function liveServers(client: pg.Client): Promise<string[]> {
  const { rows } = await client.query(
    "SELECT id FROM servers WHERE lease_until > now() AND ended_at IS NULL",
  );
  return rows.map((row: { id: string }) => row.id);
}

/**
 * Records a local frontend build and queues its start, as the builds service does (a row, a
 * 'queued' event and a job on builds-start); whichever server takes the job runs it.
 */
export async function queueBuild(client: pg.Client, tag: string): Promise<number> {
  const { rows } = await client.query(
    `INSERT INTO builds (family, region, executor_kind, test_run_key, mode, test_run_name, executor,
       source_version, test_tag, nora_site, payload, started_by_email, started_by_name, deadline)
     VALUES ('frontend', 'US', 'local', $1, 'by_tags', $2, 'chaos', 'main', $3, 'dev1.example.com',
       $4, 'chaos@example.com', 'Chaos', now() + interval '1 hour')
     RETURNING id::int`,
    [
      `frontend-${randomUUID()}`,
      `chaos ${tag}`,
      tag,
      JSON.stringify({ nora_site: "dev1.example.com", mode: "by_tags", tag }),
    ],
  );
  const id = rows[0].id as number;
  await client.query(
    "INSERT INTO build_events (build_id, kind, message) VALUES ($1, 'queued', 'Queued by the chaos campaign.')",
    [id],
  );
  await client.query(`INSERT INTO pgboss.job (name, data) VALUES ('builds-start', $1)`, [
    JSON.stringify({ buildId: id }),
  ]);
  return id;
}

/** A Stop as any server records it: the request on the row, and NOTIFY to the servers. */
export async function requestStop(client: pg.Client, id: number): Promise<void> {
  await client.query(
    `WITH requested AS (
       UPDATE builds SET stop_requested_at = now(), stop_requested_by = 'Chaos',
              status_message = 'Stopped by Chaos.'
        WHERE id = $1 AND build_status = 'IN_PROGRESS' RETURNING id)
     SELECT pg_notify('assay_build_stop', id::text) FROM requested`,
    [id],
  );
}

/** Whether a process runs (a zombie does not). */
export function processAlive(pid: number): boolean {
  try {
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, "utf8"));
  } catch {
    return false;
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` until it returns a value (not undefined) or `ms` pass. */
export async function waitFor<T>(ms: number, check: () => Promise<T | undefined>): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`not reached in ${ms} ms`);
    await sleep(250);
  }
}
