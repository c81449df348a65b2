import type { BuildTemplate } from "@assay/core";
import { pino } from "pino";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../test/test-database.js";
import { BuildsUnavailable, type BuildLauncher } from "./build-launcher.js";
import { nextSlots } from "./schedule-times.js";
import { launchOrphanSlots, runDueSlots, runNow, type SchedulerDeps } from "./scheduler.js";
import { createSetting } from "./settings.service.js";
import { claimSlot } from "./settings.repo.js";

/*
 * The scheduler against a real database with a clock the test sets: every tick is given its
 * `now`. Servers are SchedulerDeps with their own id and launcher on the same database.
 */

const TEMPLATE: BuildTemplate = {
  family: "frontend",
  region: "US",
  payload: { runType: "run_all" },
};
const HOUR = 3_600_000;

let database: TestDatabase;

interface Call {
  template: BuildTemplate;
  executorName: string;
}

const PRESSER = { id: 1, email: "qa@example.com", name: "QA Engineer" };

function server(id: string, calls: Call[], launcher?: BuildLauncher): SchedulerDeps {
  return {
    db: database.db,
    launcher: launcher ?? {
      launch: async (template, executorName) => {
        calls.push({ template, executorName });
        // A launch takes a moment, so two servers' ticks really overlap.
        await new Promise((resolve) => setTimeout(resolve, 20));
        return { buildId: `b-${id}-${calls.length}`, testRunKey: `run-${id}-${calls.length}` };
      },
    },
    executorName: "daily robot executor",
    catchUpMs: HOUR,
    minIntervalMs: 15 * 60_000,
    serverId: id,
    log: pino({ level: "silent" }),
  };
}

/** A daily schedule at 02:00 in `timeZone`, looking for slots from `from` on. */
async function daily(name: string, from: Date, timeZone = "UTC", cron = "0 2 * * *") {
  const setting = await createSetting(
    database.db,
    {
      name,
      description: "",
      isActive: 1,
      cron,
      timeZone,
      template: TEMPLATE,
      rerunFailures: false,
    },
    {
      by: "qa@example.com",
      fullWebhook: true,
      webhooks: { allowPrivate: false },
      minIntervalMs: 15 * 60_000,
    },
  );
  await database.db.pool.query("UPDATE settings SET schedule_from = $1 WHERE id = $2", [
    from,
    setting.id,
  ]);
  return setting.id;
}

async function slotsOf(id: number) {
  const { rows } = await database.db.pool.query<{
    slot_at: Date;
    outcome: string;
    claimed_by: string;
    message: string | null;
  }>(
    "SELECT slot_at, outcome, claimed_by, message FROM schedule_slots WHERE setting_id = $1 ORDER BY slot_at",
    [id],
  );
  return rows.map((r) => ({ ...r, slot_at: r.slot_at.toISOString() }));
}

beforeAll(async () => {
  database = await createTestDatabase();
});
beforeEach(async () => {
  await database.db.pool.query("DELETE FROM settings");
});
afterAll(async () => {
  await database.drop();
});

describe("slots across daylight-saving changes (croner)", () => {
  it("runs 02:30 Berlin once on the spring-forward night (at 03:00 CEST) and once on the fall-back night", () => {
    const spring = nextSlots("30 2 * * *", "Europe/Berlin", new Date("2026-03-28T00:00:00Z"), 3);
    expect(spring.map((d) => d.toISOString())).toEqual([
      "2026-03-28T01:30:00.000Z", // 02:30 CET
      "2026-03-29T01:00:00.000Z", // 02:30 does not exist: 03:00 CEST, the end of the gap
      "2026-03-30T00:30:00.000Z", // 02:30 CEST
    ]);
    const autumn = nextSlots("30 2 * * *", "Europe/Berlin", new Date("2026-10-24T12:00:00Z"), 2);
    // 02:30 happens twice on 25 October; the job runs at the first one only.
    expect(autumn.map((d) => d.toISOString())).toEqual([
      "2026-10-25T00:30:00.000Z",
      "2026-10-26T01:30:00.000Z",
    ]);
  });

  it("keeps 09:00 New York local across the March change (14:00Z, then 13:00Z)", () => {
    const slots = nextSlots("0 9 * * *", "America/New_York", new Date("2026-03-07T00:00:00Z"), 2);
    expect(slots.map((d) => d.toISOString())).toEqual([
      "2026-03-07T14:00:00.000Z",
      "2026-03-08T13:00:00.000Z",
    ]);
  });
});

describe("runDueSlots", () => {
  it("launches a slot once, with the daily robot's executor name, and nothing before it is due", async () => {
    const calls: Call[] = [];
    const id = await daily("nightly", new Date("2026-05-01T00:00:00Z"));
    const a = server("a", calls);

    expect((await runDueSlots(a, new Date("2026-05-01T01:59:00Z"))).launched).toBe(0);
    expect((await runDueSlots(a, new Date("2026-05-01T02:00:10Z"))).launched).toBe(1);
    expect((await runDueSlots(a, new Date("2026-05-01T02:01:00Z"))).launched).toBe(0);

    expect(calls).toEqual([{ template: TEMPLATE, executorName: "daily robot executor" }]);
    expect(await slotsOf(id)).toEqual([
      expect.objectContaining({
        slot_at: "2026-05-01T02:00:00.000Z",
        outcome: "launched",
        claimed_by: "a",
      }),
    ]);
  });

  it("two servers ticking at the same moment launch the slot once", async () => {
    const callsA: Call[] = [];
    const callsB: Call[] = [];
    const id = await daily("nightly", new Date("2026-05-01T00:00:00Z"));
    const now = new Date("2026-05-01T02:00:05Z");

    const [ra, rb] = await Promise.all([
      runDueSlots(server("a", callsA), now),
      runDueSlots(server("b", callsB), now),
    ]);

    expect(callsA.length + callsB.length).toBe(1);
    expect(ra.launched + rb.launched).toBe(1);
    expect(await slotsOf(id)).toHaveLength(1);
  });

  it("of two servers claiming the same slot at once, exactly one gets it", async () => {
    const id = await daily("nightly", new Date("2026-05-01T00:00:00Z"));
    const slotAt = new Date("2026-05-01T02:00:00Z");
    const claims = await Promise.all(
      ["a", "b", "c", "d"].map((claimedBy) =>
        claimSlot(database.db, { settingId: id, slotAt, kind: "scheduled", claimedBy }),
      ),
    );
    expect(claims.filter((claim) => claim !== undefined)).toHaveLength(1);
    expect(await slotsOf(id)).toHaveLength(1);
  });

  it("a slot passed while every server was down runs once at start within the catch-up window", async () => {
    const calls: Call[] = [];
    const id = await daily("nightly", new Date("2026-05-01T00:00:00Z"));
    // Last tick before the stop at 01:50; the first server starts again at 02:40.
    await runDueSlots(server("a", calls), new Date("2026-05-01T01:50:00Z"));
    await runDueSlots(server("b", calls), new Date("2026-05-01T02:40:00Z"));
    await runDueSlots(server("b", calls), new Date("2026-05-01T02:41:00Z"));

    expect(calls).toHaveLength(1);
    expect(await slotsOf(id)).toEqual([
      expect.objectContaining({
        slot_at: "2026-05-01T02:00:00.000Z",
        outcome: "launched",
        claimed_by: "b",
      }),
    ]);
  });

  it("a slot found later than the catch-up window is recorded as missed, not launched", async () => {
    const calls: Call[] = [];
    const id = await daily("nightly", new Date("2026-05-01T00:00:00Z"));

    const report = await runDueSlots(server("a", calls), new Date("2026-05-01T03:30:00Z"));

    expect(report).toEqual({ launched: 0, missed: 1, lost: 0 });
    expect(calls).toHaveLength(0);
    const [slot] = await slotsOf(id);
    expect(slot).toMatchObject({ slot_at: "2026-05-01T02:00:00.000Z", outcome: "missed" });
    expect(slot?.message).toContain("more than 60 minutes late");
    // The next day's slot runs as usual.
    await runDueSlots(server("a", calls), new Date("2026-05-02T02:00:30Z"));
    expect(calls).toHaveLength(1);
  });

  it("looks for slots only from when the schedule was made or switched on", async () => {
    const calls: Call[] = [];
    await daily("new", new Date("2026-05-01T10:00:00Z"));
    const report = await runDueSlots(server("a", calls), new Date("2026-05-01T10:01:00Z"));
    expect(report).toEqual({ launched: 0, missed: 0, lost: 0 });
  });

  it("an inactive schedule launches nothing", async () => {
    const calls: Call[] = [];
    const id = await daily("paused", new Date("2026-05-01T00:00:00Z"));
    await database.db.pool.query("UPDATE settings SET is_active = false WHERE id = $1", [id]);
    await runDueSlots(server("a", calls), new Date("2026-05-01T02:00:30Z"));
    expect(calls).toHaveLength(0);
    expect(await slotsOf(id)).toEqual([]);
  });

  it("records a server without builds as 'builds are not available on this server'", async () => {
    const id = await daily("nightly", new Date("2026-05-01T00:00:00Z"));
    const none: BuildLauncher = { launch: () => Promise.reject(new BuildsUnavailable()) };
    await runDueSlots(server("a", [], none), new Date("2026-05-01T02:00:30Z"));
    expect(await slotsOf(id)).toEqual([
      expect.objectContaining({
        outcome: "unavailable",
        message: "builds are not available on this server",
      }),
    ]);
  });

  it("records a failed launch with its message", async () => {
    const id = await daily("nightly", new Date("2026-05-01T00:00:00Z"));
    const broken: BuildLauncher = {
      launch: () => Promise.reject(new Error("runner refused: 503")),
    };
    await runDueSlots(server("a", [], broken), new Date("2026-05-01T02:00:30Z"));
    expect(await slotsOf(id)).toEqual([
      expect.objectContaining({ outcome: "failed", message: "runner refused: 503" }),
    ]);
  });
});

describe("runNow", () => {
  it("launches at once, whatever the schedule, and records the slot as manual", async () => {
    const calls: Call[] = [];
    const id = await daily("nightly", new Date("2026-05-01T00:00:00Z"));
    const slot = await runNow(server("a", calls), id, new Date("2026-05-01T12:00:00Z"), PRESSER);
    expect(slot).toMatchObject({ kind: "manual", outcome: "launched", test_run_key: "run-a-1" });
    expect(calls).toHaveLength(1);
    expect(await runNow(server("a", calls), 999_999, new Date(), PRESSER)).toBeUndefined();
  });
});

describe("a slot claimed by a server that died before launching it", () => {
  it("is launched once by a live server, never while its claimer lives, never when too old", async () => {
    const id = await daily("orphan slot", new Date(Date.now() - 2 * HOUR));
    const slotAt = new Date(Date.now() - 60_000);
    const slotId = await claimSlot(database.db, {
      settingId: id,
      slotAt,
      kind: "scheduled",
      claimedBy: "dead-server",
    });
    expect(slotId).toBeDefined();
    const callsA: Call[] = [];
    const callsB: Call[] = [];
    const a = server("live-a", callsA);
    const b = server("live-b", callsB);
    // While its claimer is live, nobody touches it.
    expect(await launchOrphanSlots(a, new Set(["live-a", "dead-server"]))).toBe(0);
    // Its claimer's lease ran out: two live servers sweep at once; one launches it.
    const launched = await Promise.all([
      launchOrphanSlots(a, new Set(["live-a", "live-b"])),
      launchOrphanSlots(b, new Set(["live-a", "live-b"])),
    ]);
    expect(launched[0] + launched[1]).toBe(1);
    expect(callsA.length + callsB.length).toBe(1);
    const slot = (await slotsOf(id)).find((s) => s.slot_at === slotAt.toISOString())!;
    expect(slot.outcome).toBe("launched");
    expect(["live-a", "live-b"]).toContain(slot.claimed_by);
    expect(await launchOrphanSlots(a, new Set(["live-a"]))).toBe(0);
    // A claim older than the catch-up window is left alone (nobody expects that build now).
    await claimSlot(database.db, {
      settingId: id,
      slotAt: new Date(slotAt.getTime() - 1_000),
      kind: "scheduled",
      claimedBy: "dead-server",
    });
    await database.db.pool.query(
      "UPDATE schedule_slots SET claimed_at = now() - interval '2 hours' WHERE outcome IS NULL",
    );
    expect(await launchOrphanSlots(a, new Set(["live-a"]))).toBe(0);
  });
});
