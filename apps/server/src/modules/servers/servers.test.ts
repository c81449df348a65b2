import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../test/test-database.js";
import * as repo from "./servers.repo.js";
import { ServerRegistry, type RegistryDeps } from "./servers.registry.js";

// The lease rules: a server is live while its lease (renewed each heartbeat) runs, by the
// database's clock; the work of a server whose lease ran out is taken over, never a live one's.

let database: TestDatabase;
const registries: ServerRegistry[] = [];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  vi.useRealTimers();
  for (const registry of registries) await registry.close();
  await database.drop();
});

function registry(overrides: Partial<RegistryDeps> = {}): ServerRegistry {
  const made = new ServerRegistry({
    db: database.db.kysely,
    log: pino({ level: "silent" }),
    leaseMs: 1_500,
    heartbeatMs: 60_000, // beats are driven by the tests (tick())
    dataDir: "/srv/assay-a",
    host: "host-a",
    ...overrides,
  });
  registries.push(made);
  return made;
}

const live = () => repo.liveServerIds(database.db.kysely);

describe("server leases", () => {
  it("a registered server is live until its lease runs out unrenewed; renewing keeps it live", async () => {
    const a = registry();
    const b = registry({ host: "host-b" });
    await a.start();
    await b.start();
    expect(await live()).toEqual(expect.arrayContaining([a.id, b.id]));
    // a renews; b does not (a frozen or killed process).
    for (let i = 0; i < 4; i++) {
      await sleep(500);
      await a.tick();
    }
    const now = await live();
    expect(now).toContain(a.id);
    expect(now).not.toContain(b.id);
    expect(await a.isLive(b.id)).toBe(false);
  });

  it("judges by the database's clock: a server whose own clock is hours off keeps its lease", async () => {
    const skewed = registry({ host: "host-skewed" });
    // This process's clock jumps 3 hours ahead (setSystemTime moves Date only; timers run).
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 3 * 3_600_000);
    try {
      await skewed.start();
      await skewed.tick();
      expect(await live()).toContain(skewed.id);
      const row = await repo.findServer(database.db.kysely, skewed.id);
      // The lease ends 1.5 s after the database's now, whatever this process believes.
      const { rows } = await database.db.pool.query<{ left: number }>(
        "SELECT extract(epoch FROM lease_until - now()) * 1000 AS left FROM servers WHERE id = $1",
        [skewed.id],
      );
      expect(Number(rows[0]!.left)).toBeGreaterThan(0);
      expect(Number(rows[0]!.left)).toBeLessThanOrEqual(1_500);
      expect(row!.heartbeat_at.getTime()).toBeLessThan(Date.now() - 3_000_000);
    } finally {
      vi.useRealTimers();
    }
  });

  it("a server that comes back after its lease ran out does not revive it: it is told, drops its work, and registers anew", async () => {
    const paused = registry({ host: "host-paused" });
    const lost = vi.fn();
    paused.onLeaseLost(lost);
    await paused.start();
    const before = paused.id;
    await sleep(1_800); // paused past its lease
    await paused.tick();
    expect(lost).toHaveBeenCalledOnce();
    expect(paused.id).not.toBe(before);
    const now = await live();
    expect(now).toContain(paused.id);
    expect(now).not.toContain(before);
    // The old id stays dead: renewing it is refused.
    expect(await repo.renew(database.db.kysely, before, 1_500)).toBe(false);
  });

  it("a restart on the same host and data folder ends its dead predecessor's lease at once; a live one's is kept", async () => {
    const first = registry({ host: "host-r", pid: 999_001 });
    await first.start();
    const sibling = registry({ host: "host-r", pid: 999_002, dataDir: "/srv/assay-a" });
    await sibling.start();
    // The restarted process: pid 999_001 is dead, 999_002 is alive.
    const restarted = registry({
      host: "host-r",
      pid: 999_003,
      isAlive: (pid) => pid === 999_002,
    });
    await restarted.start();
    const now = await live();
    expect(now).not.toContain(first.id);
    expect(now).toContain(sibling.id);
    expect(now).toContain(restarted.id);
  });

  it("sweeps tell each module the live servers after every beat, and a failing sweeper does not stop the others", async () => {
    const a = registry({ host: "host-s" });
    const seen: string[][] = [];
    a.onSweep(async () => {
      throw new Error("boom");
    });
    a.onSweep(async (servers) => {
      seen.push([...servers]);
    });
    await a.start();
    await a.tick();
    expect(seen).toHaveLength(2);
    expect(seen[1]).toContain(a.id);
  });

  it("a clean stop ends the lease at once", async () => {
    const a = registry({ host: "host-c" });
    await a.start();
    expect(await live()).toContain(a.id);
    await a.close();
    expect(await live()).not.toContain(a.id);
  });
});
