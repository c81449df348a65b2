import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  buildBuildApp,
  insertBuildUser,
  RUNNER_ARGV,
  waitForEnd,
  type BuildApp,
} from "../../../test/build-apps.js";
import { createTestDatabase, type TestDatabase } from "../../../test/test-database.js";

// builds.localConcurrency: a server runs at most this many local builds at once; the others wait
// QUEUED, saying why, and start when a slot frees.

let database: TestDatabase;
let server: BuildApp;

beforeAll(async () => {
  database = await createTestDatabase();
  const user = await insertBuildUser(database);
  const local = `{ kind: local, command: ${JSON.stringify(RUNNER_ARGV)}, requires: [] }`;
  server = await buildBuildApp(database, {
    user,
    builds: `builds:\n  executors: { frontend: ${local}, china: ${local}, backend: ${local}, load: ${local} }\n  localConcurrency: 1\n  rateLimit: { builds: 50, perMinutes: 1 }\n`,
  });
});
afterAll(async () => {
  await server?.close();
  await database.drop();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function create(): Promise<number> {
  const res = await server.app.inject({
    method: "POST",
    url: "/v1/builds",
    payload: { nora_site: "dev1.example.com", mode: "by_tags", tag: "@sleep" },
  });
  return res.json().build.id as number;
}

const get = async (id: number) =>
  (await server.app.inject({ method: "GET", url: `/v1/builds/${id}` })).json();

describe("local build slots", () => {
  it("a build beyond the cap waits QUEUED and starts when the running one ends", async () => {
    const first = await create();
    for (let i = 0; i < 100 && (await get(first)).externalId === null; i++) await sleep(100);
    const second = await create();
    let waiting = await get(second);
    for (let i = 0; i < 100 && waiting.statusMessage === null; i++) {
      await sleep(100);
      waiting = await get(second);
    }
    expect(waiting).toMatchObject({
      buildStatus: "IN_PROGRESS",
      currentPhase: "QUEUED",
      externalId: null,
      statusMessage: "Waiting for a free local build slot (each server runs 1 at once).",
    });
    // Still waiting a few offers later: the cap holds.
    await sleep(4_000);
    expect((await get(second)).externalId).toBeNull();
    await server.app.inject({ method: "POST", url: `/v1/builds/${first}/stop` });
    expect((await waitForEnd(server.app, first)).buildStatus).toBe("STOPPED");
    let started = await get(second);
    for (let i = 0; i < 100 && started.externalId === null; i++) {
      await sleep(100);
      started = await get(second);
    }
    expect(started.externalId).not.toBeNull();
    expect(started.events.map((event: { kind: string }) => event.kind)).toEqual([
      "queued",
      "waiting",
      "started",
    ]);
    await server.app.inject({ method: "POST", url: `/v1/builds/${second}/stop` });
    expect((await waitForEnd(server.app, second)).buildStatus).toBe("STOPPED");
  });
});
