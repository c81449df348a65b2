import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp } from "../../../test/build-test-app.js";
import { insertBuildUser } from "../../../test/build-apps.js";
import { createTestDatabase, type TestDatabase } from "../../../test/test-database.js";
import { deliverSummary, type FollowUpDeps } from "./followup.js";
import { listDueCandidates } from "./settings.repo.js";

/*
 * DELETE /v1/setting/{id} on the real app: the schedule leaves the screen and never runs again,
 * and its row and its slots' history are kept (migration 0226), as the standards ask of
 * anything a person wrote.
 */

let database: TestDatabase;
let app: FastifyInstance;

const TEMPLATE = { family: "backend", region: "US", payload: { env: "stage", branch: "master" } };

beforeAll(async () => {
  database = await createTestDatabase();
  // Run now records the presser: a real user row.
  const presser = await insertBuildUser(database);
  app = (
    await buildTestApp(database.db, { resolvePrincipal: async () => presser, startWorkers: false })
  ).app;
});
afterAll(async () => {
  await app.close();
  await database.drop();
});

const send = (method: "GET" | "POST" | "PUT" | "DELETE", url: string, payload?: object) =>
  app.inject({ method, url, payload });

async function deletedAfterARun(name: string, extra: object = {}) {
  const created = await send("POST", "/v1/setting", {
    name,
    cron: "0 3 * * *",
    template: TEMPLATE,
    ...extra,
  });
  expect(created.statusCode, created.body).toBe(201);
  const id = created.json().id as number;
  const slot = await send("POST", `/v1/setting/${id}/run`);
  expect(slot.statusCode, slot.body).toBe(201);
  const deleted = await send("DELETE", `/v1/setting/${id}`);
  expect(deleted.json()).toEqual({ id, deleted: true });
  const { rows } = await database.db.pool.query(
    "SELECT id FROM schedule_slots WHERE setting_id = $1",
    [id],
  );
  return { id, slotId: Number(rows[0].id), buildId: slot.json().buildId as string };
}

describe("a deleted schedule", () => {
  it("leaves the list, cannot be edited, run or deleted again, and is not ticked", async () => {
    const { id } = await deletedAfterARun("nightly to delete");
    const listed = (await send("GET", "/v1/setting")).json() as { id: number }[];
    expect(listed.map((s) => s.id)).not.toContain(id);
    expect((await send("PUT", `/v1/setting/${id}`, { name: "back" })).statusCode).toBe(404);
    expect((await send("POST", `/v1/setting/${id}/run`)).statusCode).toBe(404);
    expect((await send("DELETE", `/v1/setting/${id}`)).statusCode).toBe(404);
    const due = await listDueCandidates(database.db);
    expect(due.map((s) => Number(s.id))).not.toContain(id);
  });

  it("keeps its row, who deleted it, and the history of the builds it launched", async () => {
    const { id, slotId, buildId } = await deletedAfterARun("kept after delete");
    const { rows } = await database.db.pool.query(
      "SELECT name, is_active, archived_by, archived_at IS NOT NULL AS archived FROM settings WHERE id = $1",
      [id],
    );
    expect(rows).toEqual([
      {
        name: "kept after delete",
        is_active: false,
        archived_by: "qa@example.com",
        archived: true,
      },
    ]);
    const slots = await database.db.pool.query(
      "SELECT id, outcome, build_id FROM schedule_slots WHERE setting_id = $1",
      [id],
    );
    expect(slots.rows).toEqual([{ id: String(slotId), outcome: "launched", build_id: buildId }]);
    expect(buildId).toMatch(/^[0-9]+$/);
  });

  it("sends no summary its build had queued, and says so on the slot", async () => {
    const { slotId } = await deletedAfterARun("webhook after delete", {
      webhookUrl: "https://hooks.example.com/assay",
    });
    // Nothing past the check is reached: the deps it would use for a delivery are not given.
    const deps = { db: database.db } as FollowUpDeps;
    await deliverSummary(deps, { slotId, buildId: "1", status: "SUCCEEDED", isRerun: false });
    const { rows } = await database.db.pool.query(
      "SELECT notify_state, notify_message FROM schedule_slots WHERE id = $1",
      [slotId],
    );
    expect(rows[0]).toEqual({
      notify_state: "failed",
      notify_message: "Not sent: the schedule was deleted.",
    });
  });
});
