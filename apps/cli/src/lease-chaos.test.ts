import { writeFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import type { E2eServer } from "../../../e2e/support/server.js";
import {
  LEASE_SECONDS,
  leaseCluster,
  leaseServer,
  queueBuild,
  sleep,
  waitFor,
  type LeaseCluster,
} from "../../../e2e/support/lease-servers.js";

// The lease chaos campaign (issue 31): two real servers on one PostgreSQL, CHAOS_CYCLES cycles
// (npm run chaos: 20) of kill -9 or restart of either server while builds, data-harmonization
// runs and a schedule's slots (every minute) are under way. Afterwards: no build killed by a
// peer, none stuck past its owner's lease, every build and DH run ended exactly once, every slot
// launched exactly once. Skipped unless CHAOS_CYCLES is set (it takes minutes).

const CYCLES = Number(process.env.CHAOS_CYCLES ?? 0);
let cluster: LeaseCluster | undefined;
const servers: E2eServer[] = [];

afterAll(async () => {
  for (const server of servers) await server.stop().catch(() => undefined);
  await cluster?.close();
});

async function one<T>(sql: string, values: unknown[] = []): Promise<T> {
  return (await cluster!.client.query(sql, values)).rows[0] as T;
}

/** A DH run queued for one environment, as Run Report queues it (row and job). */
async function queueDhRun(env: string): Promise<number | undefined> {
  const row = await one<{ id: number } | undefined>(
    `INSERT INTO dh_runs (platform, type, env_type, env, kind, started_by)
     VALUES ('legacy', 'sql', 'dev', $1, 'sql', 'chaos')
     ON CONFLICT (platform, type, env, schema) WHERE state IN ('queued', 'running') DO NOTHING
     RETURNING id::int`,
    [env],
  );
  if (!row) return undefined;
  await cluster!.client.query("INSERT INTO pgboss.job (name, data) VALUES ('dh-compare', $1)", [
    JSON.stringify({ runId: row.id }),
  ]);
  return row.id;
}

describe.skipIf(CYCLES === 0)("the lease chaos campaign", () => {
  it(`${CYCLES} cycles of kill -9 and restarts of either server`, async () => {
    const started = Date.now();
    cluster = await leaseCluster();
    servers.push(await leaseServer(cluster), await leaseServer(cluster));
    await cluster.client.connect();
    // A schedule firing every minute: a quick backend build each slot.
    await cluster.client.query(
      `INSERT INTO settings (name, is_active, cron, time_zone, template, schedule_from)
       VALUES ('chaos', true, '* * * * *', 'UTC', $1, now())`,
      [
        JSON.stringify({
          family: "backend",
          region: "US",
          payload: { env: "stage", branch: "master" },
        }),
      ],
    );
    const actions = { kill: 0, restart: 0 };
    const dhRuns: number[] = [];
    for (let cycle = 0; cycle < CYCLES; cycle++) {
      await queueBuild(cluster.client, "@nap");
      await queueBuild(cluster.client, "@nap");
      const dh = await queueDhRun(`legacy-dev-${cycle % 3}`);
      if (dh !== undefined) dhRuns.push(dh);
      await sleep(1_000 + Math.random() * 2_000);
      const victim = cycle % 2;
      const server = servers[victim]!;
      if (Math.random() < 0.6) {
        actions.kill++;
        await server.kill();
        await sleep(Math.random() * 3_000);
      } else {
        actions.restart++;
        await server.stop();
      }
      servers[victim] = await leaseServer(cluster, server.dataDir);
      await sleep(2_000 + Math.random() * 3_000);
    }
    // Everything ends within a lease, a beat and a nap of the last cycle (generous on 2 cores).
    await waitFor(180_000, async () => {
      const active = await one<{ n: number }>(
        "SELECT count(*)::int AS n FROM builds WHERE build_status = 'IN_PROGRESS'",
      );
      const dhActive = await one<{ n: number }>(
        "SELECT count(*)::int AS n FROM dh_runs WHERE state IN ('queued', 'running')",
      );
      return active.n === 0 && dhActive.n === 0 ? true : undefined;
    }).catch(() => undefined);
    const builds = await one<Record<string, number>>(
      `SELECT count(*)::int AS total,
              count(*) FILTER (WHERE build_status = 'IN_PROGRESS')::int AS stuck,
              count(*) FILTER (WHERE build_status = 'SUCCEEDED')::int AS succeeded,
              count(*) FILTER (WHERE build_status = 'FAILED')::int AS failed,
              count(*) FILTER (WHERE status_message LIKE '%signal%')::int AS killed,
              count(*) FILTER (WHERE tries > 1)::int AS taken_over,
              coalesce(max(tries), 0)::int AS most_tries
         FROM builds`,
    );
    const endings = await one<{ wrong: number }>(
      `SELECT count(*)::int AS wrong FROM (
         SELECT b.id, count(e.id) FILTER (WHERE e.kind = 'finished') AS n
           FROM builds b LEFT JOIN build_events e ON e.build_id = b.id GROUP BY b.id) t
        WHERE n <> 1`,
    );
    const slots = await one<Record<string, number>>(
      `SELECT count(*)::int AS total,
              count(*) FILTER (WHERE outcome = 'launched')::int AS launched,
              count(*) FILTER (WHERE outcome IS NULL)::int AS unlaunched,
              count(*) FILTER (WHERE outcome NOT IN ('launched'))::int AS other,
              (count(build_id) - count(DISTINCT build_id))::int AS doubled
         FROM schedule_slots`,
    );
    const dh = await one<Record<string, number>>(
      `SELECT count(*)::int AS total,
              count(*) FILTER (WHERE state IN ('queued', 'running'))::int AS stuck,
              count(*) FILTER (WHERE error LIKE 'Interrupted:%')::int AS interrupted
         FROM dh_runs`,
    );
    const summary = {
      cycles: CYCLES,
      leaseSeconds: LEASE_SECONDS,
      minutes: Math.round((Date.now() - started) / 6_000) / 10,
      actions,
      builds,
      buildsNotEndedExactlyOnce: endings.wrong,
      slots,
      dhRuns: dh,
    };
    console.log(`CHAOS ${JSON.stringify(summary)}`);
    if (process.env.CHAOS_SUMMARY)
      writeFileSync(process.env.CHAOS_SUMMARY, JSON.stringify(summary, null, 2));
    expect(builds.stuck).toBe(0);
    expect(builds.killed).toBe(0);
    expect(builds.failed).toBe(0);
    expect(endings.wrong).toBe(0);
    expect(slots.unlaunched).toBe(0);
    expect(slots.doubled).toBe(0);
    expect(slots.launched).toBe(slots.total);
    expect(dh.stuck).toBe(0);
  }, 3_600_000);
});
