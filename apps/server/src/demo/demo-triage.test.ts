import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertRun } from "../../test/factories.js";
import { createTestDatabase, type TestDatabase } from "../../test/test-database.js";
import { lastRunIdBefore } from "./demo.repo.js";

/**
 * The demo triages its runs up to yesterday, lets a QA lead classify causes, then triages last
 * night's runs, which take her decisions automatically (demo-triage.ts). The cutoff is by post
 * order: a run posted last but dated in the past (the renamed job's) must not move it.
 */

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.drop();
});

describe("the demo's triage cutoff", () => {
  it("is the run posted before the first one dated since yesterday", async () => {
    const at = (iso: string) => ({ created_at: new Date(iso) });
    const old = await insertRun(database.db, at("2026-11-20T01:00:00Z"));
    const lastNight = await insertRun(database.db, at("2026-11-29T01:00:00Z"));
    // Posted after last night's runs, dated two days before them.
    await insertRun(database.db, at("2026-11-27T07:50:00Z"));
    const yesterday = new Date("2026-11-28T12:00:00Z");
    expect(await lastRunIdBefore(database.db, yesterday)).toBe(old.id);
    expect(lastNight.id).toBe(old.id + 1);
    // Nothing since yesterday: every run is before the cutoff.
    const last = await insertRun(database.db, at("2026-11-10T00:00:00Z"));
    expect(await lastRunIdBefore(database.db, new Date("2026-12-01T00:00:00Z"))).toBe(last.id);
  });
});
