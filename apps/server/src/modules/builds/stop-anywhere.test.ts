import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  buildBuildApp,
  insertBuildUser,
  waitForEnd,
  type BuildApp,
} from "../../../test/build-apps.js";
import { createTestDatabase, type TestDatabase } from "../../../test/test-database.js";

// Two servers on one database, as behind a load balancer: a local build runs on the server whose
// job started it, and Stop must end it whichever server receives the request.

let database: TestDatabase;
let servers: BuildApp[];

// No heartbeat while a test runs (only each server's sweep at its start): a takeover sweep of
// the other server landing between a server's going down and the Stop would start the build
// again before anyone asked to stop it (builds.takeover.ts), which is right, but not this file's
// case. takeover.test.ts covers the sweeps.
const env = { ASSAY_SERVER_LEASE_SECONDS: "600", ASSAY_SERVER_HEARTBEAT_SECONDS: "200" };

beforeAll(async () => {
  database = await createTestDatabase();
  const user = await insertBuildUser(database);
  servers = [
    await buildBuildApp(database, { user, env }),
    await buildBuildApp(database, { user, env }),
  ];
});
afterAll(async () => {
  for (const server of servers ?? []) await server.close();
  await database.drop();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts a sleeping build and waits until its runner's child is up; which server runs it. */
async function sleepingBuild() {
  const created = (
    await servers[0]!.app.inject({
      method: "POST",
      url: "/v1/builds",
      payload: { nora_site: "dev1.example.com", mode: "by_tags", tag: "@sleep" },
    })
  ).json().build as { id: number };
  for (let i = 0; i < 200; i++) {
    const { rows } = await database.db.pool.query(
      "SELECT runner_boot, external_id FROM builds WHERE id = $1",
      [created.id],
    );
    const owner = servers.find((s) => s.app.buildRunner.serverId === rows[0].runner_boot);
    if (owner && rows[0].external_id !== null) {
      // The log is a file of the server that runs the build until it ends.
      const log = (
        await owner.app.inject({ method: "GET", url: `/v1/builds/${created.id}` })
      ).json().log.text as string;
      const child = /CHILD (\d+)/.exec(log);
      if (child) {
        const other = servers.find((s) => s !== owner)!;
        return { id: created.id, owner, other, childPid: Number(child[1]) };
      }
    }
    await sleep(100);
  }
  throw new Error(`build ${created.id} did not start its child`);
}

/** Whether the process runs (a zombie waiting to be reaped does not). */
function alive(pid: number): boolean {
  try {
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, "utf8"));
  } catch {
    return false;
  }
}

async function expectGone(pid: number) {
  for (let i = 0; i < 50 && alive(pid); i++) await sleep(100);
  expect(alive(pid)).toBe(false);
}

describe("Stop of a local build on a server that does not run it", () => {
  it("is recorded, notified, and the server running it ends its process group", async () => {
    const { id, owner, other, childPid } = await sleepingBuild();
    const started = Date.now();
    const res = await other.app.inject({ method: "POST", url: `/v1/builds/${id}/stop` });
    expect(res.statusCode).toBe(200);
    expect(res.json().build).toMatchObject({ statusMessage: "Stopped by QA Engineer." });
    const ended = await waitForEnd(owner.app, id);
    expect(ended).toMatchObject({
      buildStatus: "STOPPED",
      currentPhase: "COMPLETED",
      statusMessage: "Stopped by QA Engineer.",
    });
    // Told by NOTIFY, not found by the 5 s sweep.
    expect(Date.now() - started).toBeLessThan(4_000);
    await expectGone(childPid);
    // The owner kept its log in object storage as it ended.
    expect(ended.log.text).toContain("CHILD ");
    expect(
      (await other.app.inject({ method: "POST", url: `/v1/builds/${id}/stop` })).statusCode,
    ).toBe(409);
  });

  it("is still acted on when its notification was missed: the owner's sweep finds the request", async () => {
    const { id, owner, childPid } = await sleepingBuild();
    // A request recorded while no server listened: the row only, no NOTIFY.
    await database.db.pool.query(
      "UPDATE builds SET stop_requested_at = now(), stop_requested_by = 'QA Engineer', status_message = 'Stopped by QA Engineer.' WHERE id = $1",
      [id],
    );
    const ended = await waitForEnd(owner.app, id, 15_000);
    expect(ended).toMatchObject({
      buildStatus: "STOPPED",
      statusMessage: "Stopped by QA Engineer.",
    });
    await expectGone(childPid);
  });

  it("of a build whose server went down ends STOPPED at once, and no server starts it again", async () => {
    const { id, owner, other, childPid } = await sleepingBuild();
    // The server going down ends its build's process and its lease; the build stays active.
    servers = servers.filter((s) => s !== owner);
    await owner.close();
    await expectGone(childPid);
    const res = await other.app.inject({ method: "POST", url: `/v1/builds/${id}/stop` });
    expect(res.json().build).toMatchObject({
      buildStatus: "STOPPED",
      statusMessage: "Stopped by QA Engineer.",
    });
    const next = await buildBuildApp(database, { user: owner.user, env });
    servers.push(next);
    await sleep(1_500);
    const ended = (await next.app.inject({ method: "GET", url: `/v1/builds/${id}` })).json();
    expect(ended).toMatchObject({ buildStatus: "STOPPED" });
    expect(ended.events.map((event: { kind: string }) => event.kind)).toEqual([
      "queued",
      "started",
      "stop_requested",
      "finished",
    ]);
    // Not started again: no server ran a second try.
    expect(ended.log.text).not.toContain("Try 2");
  });
});
