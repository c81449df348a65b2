import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  buildBuildApp,
  insertBuildUser,
  waitForEnd,
  type BuildApp,
} from "../../../test/build-apps.js";
import { createTestDatabase, type TestDatabase } from "../../../test/test-database.js";

// Two servers on one database with short leases (3 s, a beat each second): a server takes over
// only the builds of a server whose lease ran out, never a live peer's (issue 31).

const LEASE = { ASSAY_SERVER_LEASE_SECONDS: "3", ASSAY_SERVER_HEARTBEAT_SECONDS: "1" };
let database: TestDatabase;
let user: Awaited<ReturnType<typeof insertBuildUser>>;
let servers: BuildApp[];

beforeAll(async () => {
  database = await createTestDatabase();
  user = await insertBuildUser(database);
  servers = [
    await buildBuildApp(database, { user, env: LEASE }),
    await buildBuildApp(database, { user, env: LEASE }),
  ];
});
afterAll(async () => {
  for (const server of servers ?? []) await server.close();
  await database.drop();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function row(id: number) {
  const { rows } = await database.db.pool.query(
    "SELECT runner_boot, external_id, tries, build_status, token_hash FROM builds WHERE id = $1",
    [id],
  );
  return rows[0] as {
    runner_boot: string | null;
    external_id: string | null;
    tries: number;
    build_status: string;
    token_hash: string | null;
  };
}

function alive(pid: number): boolean {
  try {
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, "utf8"));
  } catch {
    return false;
  }
}

/** The environment of a running process, as the runner wrapper received it. */
function environOf(pid: number): Record<string, string> {
  const pairs = readFileSync(`/proc/${pid}/environ`, "latin1").split("\0").filter(Boolean);
  return Object.fromEntries(
    pairs.map((pair) => [pair.split("=")[0], pair.slice(pair.indexOf("=") + 1)]),
  );
}

/** A sleeping build, started; the server that runs it and the other one. */
async function runningBuild(tag = "@sleep") {
  const created = (
    await servers[0]!.app.inject({
      method: "POST",
      url: "/v1/builds",
      payload: { nora_site: "dev1.example.com", mode: "by_tags", tag },
    })
  ).json().build as { id: number };
  for (let i = 0; i < 200; i++) {
    const current = await row(created.id);
    const owner = servers.find((s) => s.app.buildRunner.serverId === current.runner_boot);
    if (owner && current.external_id !== null) {
      const other = servers.find((s) => s !== owner)!;
      return { id: created.id, owner, other, pid: Number(current.external_id) };
    }
    await sleep(100);
  }
  throw new Error(`build ${created.id} did not start`);
}

/** An upload into the build's run with this token: 201, or 401 once the token is dead. */
async function upload(token: string, runKey: string): Promise<number> {
  const form = new FormData();
  form.append("run_key", runKey);
  form.append("family", "frontend");
  const report = {
    results: { tool: { name: "t" }, tests: [{ name: "a", status: "passed", duration: 1 }] },
  };
  form.append("file", new Blob([JSON.stringify(report)]), "ctrf.json");
  const answer = await fetch(`${servers[0]!.url}/v1/ingest/reports`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  return answer.status;
}

describe("builds and server leases", () => {
  it("a restart of the other server leaves a live server's build untouched", async () => {
    const { id, owner, other, pid } = await runningBuild();
    // Restart the other server: stop it, start it again on the same data folder.
    servers = servers.filter((s) => s !== other);
    await other.close();
    const restarted = await buildBuildApp(database, { user, env: LEASE });
    servers.push(restarted);
    // Past a lease and a few beats of the restarted server.
    await sleep(5_000);
    const now = await row(id);
    expect(now).toMatchObject({
      build_status: "IN_PROGRESS",
      tries: 1,
      runner_boot: owner.app.buildRunner.serverId,
    });
    expect(now.external_id).toBe(String(pid));
    expect(alive(pid)).toBe(true);
    await owner.app.inject({ method: "POST", url: `/v1/builds/${id}/stop` });
    expect((await waitForEnd(owner.app, id)).buildStatus).toBe("STOPPED");
  });

  it("a server whose lease ran out loses its build to a live server: try 2 with a new token, the old runner ended, history and markers kept", async () => {
    const { id, owner, pid } = await runningBuild();
    const oldId = owner.app.buildRunner.serverId;
    const env = environOf(pid);
    const oldToken = env.ASSAY_TOKEN!;
    const runKey = env.ASSAY_RUN_KEY!;
    expect(await upload(oldToken, runKey)).toBe(201);
    // The owner's lease runs out (a pause longer than the lease, as the others see it).
    await database.db.pool.query(
      "UPDATE servers SET lease_until = now() - interval '1 second' WHERE id = $1",
      [owner.app.buildRunner.serverId],
    );
    let taken = await row(id);
    for (let i = 0; i < 100 && taken.tries < 2; i++) {
      await sleep(100);
      taken = await row(id);
    }
    expect(taken.tries).toBe(2);
    // Taken by a live server: the other, or the owner itself under its new registration.
    expect(taken.runner_boot).not.toBe(oldId);
    const taker = servers.find((s) => s.app.buildRunner.serverId === taken.runner_boot)!;
    expect(taker).toBeDefined();
    // The old token died with the takeover: the old runner cannot upload any more.
    expect(await upload(oldToken, runKey)).toBe(401);
    // The owner, back, finds its lease gone and ends its runner without ending the build.
    for (let i = 0; i < 50 && alive(pid); i++) await sleep(100);
    expect(alive(pid)).toBe(false);
    for (let i = 0; i < 50 && taken.external_id === null; i++) {
      await sleep(100);
      taken = await row(id);
    }
    expect(taken.build_status).toBe("IN_PROGRESS");
    const detail = (await taker.app.inject({ method: "GET", url: `/v1/builds/${id}` })).json();
    expect(detail.events.map((event: { kind: string }) => event.kind)).toEqual([
      "queued",
      "started",
      "taken_over",
    ]);
    expect(detail.statusMessage).toMatch(
      /^Taken over by server .*: server .* stopped renewing its lease; started again as try 2\./,
    );
    expect(detail.log.text).toContain(`===== Try 2 of build ${id}, started by server`);
    // Stop: the build ends once, on the server that now runs it.
    await owner.app.inject({ method: "POST", url: `/v1/builds/${id}/stop` });
    const ended = await waitForEnd(taker.app, id);
    expect(ended).toMatchObject({
      buildStatus: "STOPPED",
      statusMessage: "Stopped by QA Engineer.",
    });
    expect(ended.events.map((event: { kind: string }) => event.kind)).toEqual([
      "queued",
      "started",
      "taken_over",
      "stop_requested",
      "finished",
    ]);
    expect((await row(id)).token_hash).toBeNull();
  });

  it("masks the build token in the live tail, the stored log and the download", async () => {
    const { id, owner } = await runningBuild("@leak,@sleep");
    const token = environOf(Number((await row(id)).external_id)).ASSAY_TOKEN!;
    let tail = "";
    for (let i = 0; i < 100 && !tail.includes("LEAK"); i++) {
      await sleep(100);
      tail = (await owner.app.inject({ method: "GET", url: `/v1/builds/${id}` })).json().log.text;
    }
    expect(tail).toContain("LEAK ***");
    expect(tail).not.toContain(token);
    await owner.app.inject({ method: "POST", url: `/v1/builds/${id}/stop` });
    const ended = await waitForEnd(owner.app, id);
    expect(ended.log.text).toContain("LEAK ***");
    const download = await owner.app.inject({ method: "GET", url: `/v1/builds/${id}/log` });
    expect(download.body).toContain("LEAK ***");
    expect(download.body).not.toContain(token);
    expect(download.body).not.toContain("assay_build_");
  });
});
