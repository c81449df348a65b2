import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { E2eServer } from "../../../e2e/support/server.js";
import {
  buildState,
  leaseCluster,
  leaseServer,
  liveServers,
  processAlive,
  queueBuild,
  requestStop,
  sleep,
  waitFor,
  type LeaseCluster,
} from "../../../e2e/support/lease-servers.js";

// Two real servers on one PostgreSQL, leases of 3 s (issue 31): restarting one leaves the other's
// build alone; kill -9 of the one running a build ends its runner at once and the other takes
// the build over, as its next try, well within 90 s.

let cluster: LeaseCluster;
let a: E2eServer;
let b: E2eServer;

beforeAll(async () => {
  cluster = await leaseCluster();
  a = await leaseServer(cluster);
  b = await leaseServer(cluster);
  await cluster.client.connect();
}, 180_000);
afterAll(async () => {
  await a?.stop();
  await b?.stop();
  await cluster?.close();
});

/** A sleeping build once it runs: its row, and which server (a or b) runs it. */
async function running(tag = "@sleep") {
  const id = await queueBuild(cluster.client, tag);
  const state = await waitFor(30_000, async () => {
    const row = await buildState(cluster.client, id);
    return row.external_id !== null ? row : undefined;
  });
  return { id, state, pid: Number(state.external_id) };
}

describe("two servers, one database", () => {
  it("restarting a server leaves the build another live server runs untouched", async () => {
    const { id, state, pid } = await running();
    // Restart both in turn, except whichever runs the build: restart the other one (SIGTERM, start).
    const live = await liveServers(cluster.client);
    expect(live).toContain(state.runner_boot);
    // Which process runs it: the one whose data folder matches the server row's.
    const { rows } = await cluster.client.query("SELECT data_dir FROM servers WHERE id = $1", [
      state.runner_boot,
    ]);
    const ownerIsA = rows[0].data_dir === a.dataDir;
    const other = ownerIsA ? b : a;
    await other.stop();
    const restarted = await leaseServer(cluster, other.dataDir);
    if (ownerIsA) b = restarted;
    else a = restarted;
    await sleep(8_000); // more than two leases and many beats of the restarted server
    const after = await buildState(cluster.client, id);
    expect(after).toMatchObject({
      build_status: "IN_PROGRESS",
      tries: 1,
      runner_boot: state.runner_boot,
    });
    expect(processAlive(pid)).toBe(true);
    await requestStop(cluster.client, id);
    await waitFor(20_000, async () =>
      (await buildState(cluster.client, id)).build_status === "STOPPED" ? true : undefined,
    );
  }, 120_000);

  it("kill -9 of the server running a build: its runner dies with it, and the other takes the build over within 90 s", async () => {
    const { id, state, pid } = await running();
    const { rows } = await cluster.client.query("SELECT data_dir FROM servers WHERE id = $1", [
      state.runner_boot,
    ]);
    const ownerIsA = rows[0].data_dir === a.dataDir;
    const owner = ownerIsA ? a : b;
    const killedAt = Date.now();
    await owner.kill();
    // The runner wrapper sees its pipe close and ends its whole group.
    await waitFor(10_000, async () => (processAlive(pid) ? undefined : true));
    const taken = await waitFor(90_000, async () => {
      const row = await buildState(cluster.client, id);
      return row.tries === 2 && row.external_id !== null ? row : undefined;
    });
    const tookMs = Date.now() - killedAt;
    expect(tookMs).toBeLessThan(90_000);
    expect(taken.runner_boot).not.toBe(state.runner_boot);
    expect(taken.build_status).toBe("IN_PROGRESS");
    const { rows: events } = await cluster.client.query(
      "SELECT kind FROM build_events WHERE build_id = $1 ORDER BY id",
      [id],
    );
    expect(events.map((event: { kind: string }) => event.kind)).toEqual([
      "queued",
      "started",
      "taken_over",
    ]);
    // Restart the killed server; the build stays with its new owner, and ends once when stopped.
    const restarted = await leaseServer(cluster, owner.dataDir);
    if (ownerIsA) a = restarted;
    else b = restarted;
    await requestStop(cluster.client, id);
    await waitFor(20_000, async () =>
      (await buildState(cluster.client, id)).build_status === "STOPPED" ? true : undefined,
    );
    const { rows: finished } = await cluster.client.query(
      "SELECT count(*)::int AS n FROM build_events WHERE build_id = $1 AND kind = 'finished'",
      [id],
    );
    expect(finished[0].n).toBe(1);
  }, 180_000);
});
