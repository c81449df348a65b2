import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDhDemoApp, type DhDemoApp } from "../../../test/dh-demo-app.js";
import { INTERRUPTED } from "./harmonization.runner.js";

// A data-harmonization run whose server died (its lease ran out) ends as interrupted, and the
// next Run Report of that environment starts a fresh run instead of joining the dead one.

let demo: DhDemoApp;
beforeAll(async () => {
  demo = await startDhDemoApp();
});
afterAll(async () => {
  await demo?.close();
});

const LEGACY_DEV = { platform: "legacy", type: "sql", envType: "dev", env: "legacy-dev" };

describe("a data-harmonization run of a dead server", () => {
  it("ends interrupted with a clear message, and Run Report then starts a fresh run", async () => {
    // A run a server was running when it died: its owner has no lease.
    const { rows } = await demo.database.db.pool.query<{ id: string }>(
      `INSERT INTO dh_runs (platform, type, env_type, env, kind, state, owner_server, started_by)
       VALUES ('legacy', 'sql', 'dev', 'legacy-dev', 'sql', 'running', 'dead-server-1', 'qa')
       RETURNING id`,
    );
    const deadId = Number(rows[0]!.id);
    // Within the lease's heartbeat (5 s by default) a live server ends it.
    let dead = (await demo.user.inject({ method: "GET", url: `/v1/dh/runs/${deadId}` })).json();
    for (let i = 0; i < 80 && dead.state === "running"; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      dead = (await demo.user.inject({ method: "GET", url: `/v1/dh/runs/${deadId}` })).json();
    }
    expect(dead).toMatchObject({ state: "failed", error: INTERRUPTED });
    const next = await demo.start(LEGACY_DEV);
    expect(next.statusCode).toBe(202);
    expect(next.json().id).not.toBe(deadId);
    const run = await demo.finished(next.json().id);
    expect(run.state).toBe("done");
  });

  it("a live server's run is not interrupted", async () => {
    const started = await demo.start({ ...LEGACY_DEV, env: "legacy-stage", envType: "stage" });
    const id = started.json().id as number;
    const run = await demo.finished(id);
    expect(run.state).toBe("done");
  });
});
