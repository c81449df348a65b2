import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp } from "../../../test/build-test-app.js";
import { QA_USER } from "../../../test/tag-apps.js";
import { createTestDatabase, type TestDatabase } from "../../../test/test-database.js";

/** The /v1/setting routes on the real app: the spec's validation, sign-in, who changed what. */

let database: TestDatabase;
let user: FastifyInstance;
let anonymous: FastifyInstance;

const TEMPLATE = { family: "backend", region: "US", payload: { env: "stage" } };

beforeAll(async () => {
  database = await createTestDatabase();
  user = (
    await buildTestApp(database.db, { resolvePrincipal: async () => QA_USER, startWorkers: false })
  ).app;
  anonymous = (
    await buildTestApp(database.db, {
      resolvePrincipal: async () => undefined,
      startWorkers: false,
    })
  ).app;
});
afterAll(async () => {
  await Promise.all([user.close(), anonymous.close()]);
  await database.drop();
});

const send = (method: "POST" | "PUT" | "DELETE", url: string, payload?: unknown, app = user) =>
  app.inject({ method, url, payload: payload as Record<string, unknown> });
const list = async () => (await anonymous.inject({ method: "GET", url: "/v1/setting" })).json();
const count = async () =>
  Number((await database.db.pool.query("SELECT count(*) FROM settings")).rows[0].count);

describe("POST /v1/setting", () => {
  it("creates a setting with the spec's fields and records who made it", async () => {
    const res = await send("POST", "/v1/setting", { name: "  Nightly UI ", description: "stage" });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      name: "Nightly UI",
      description: "stage",
      isActive: 1,
      cron: null,
      nextRuns: [],
      createdBy: "qa@example.com",
      updatedBy: "qa@example.com",
    });
  });

  it("refuses a missing, empty or blank name with 400 and changes nothing", async () => {
    const before = await count();
    for (const body of [{}, { name: "" }, { name: "   " }]) {
      const res = await send("POST", "/v1/setting", body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error.message).toMatch(/name/i);
    }
    expect(await count()).toBe(before);
  });

  it("refuses isActive other than 0 or 1", async () => {
    const res = await send("POST", "/v1/setting", { name: "x", isActive: 2 });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toContain("isActive must be 0 (False) or 1 (True)");
  });

  it("refuses a bad cron, an unknown time zone, and a cron without a template", async () => {
    const cases = [
      [{ name: "x", cron: "0 2 * *", template: TEMPLATE }, "needs five fields"],
      [{ name: "x", cron: "61 2 * * *", template: TEMPLATE }, "is not valid"],
      [
        { name: "x", cron: "0 2 * * *", timeZone: "Mars/Base", template: TEMPLATE },
        "Unknown time zone",
      ],
      [{ name: "x", cron: "0 2 * * *" }, "needs a build template"],
    ] as const;
    const before = await count();
    for (const [body, message] of cases) {
      const res = await send("POST", "/v1/setting", body);
      expect(res.statusCode, message).toBe(400);
      expect(res.json().error.message).toContain(message);
    }
    expect(await count()).toBe(before);
  });

  it("shows a schedule in words with its next three runs", async () => {
    const res = await send("POST", "/v1/setting", {
      name: "API nightly",
      cron: "0 2 * * *",
      timeZone: "Europe/Berlin",
      template: TEMPLATE,
    });
    expect(res.statusCode).toBe(201);
    const setting = res.json();
    expect(setting.scheduleText).toBe("At 02:00 (Europe/Berlin)");
    expect(setting.nextRuns).toHaveLength(3);
    expect(setting.template).toEqual(TEMPLATE);
  });

  it("needs sign-in: 401 signed out", async () => {
    const res = await send("POST", "/v1/setting", { name: "x" }, anonymous);
    expect(res.statusCode).toBe(401);
  });
});

describe("GET, PUT and DELETE /v1/setting", () => {
  it("lists by name ascending", async () => {
    await send("POST", "/v1/setting", { name: "b second" });
    await send("POST", "/v1/setting", { name: "a first" });
    const names = (await list()).map((s: { name: string }) => s.name);
    expect(names).toEqual([...names].sort());
  });

  it("updates in place (deactivate) and 404s an unknown id", async () => {
    const created = (await send("POST", "/v1/setting", { name: "to edit" })).json();
    const res = await send("PUT", `/v1/setting/${created.id}`, {
      name: "edited",
      description: "d",
      isActive: 0,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: created.id, name: "edited", isActive: 0 });
    expect((await send("PUT", "/v1/setting/999999", { name: "x" })).statusCode).toBe(404);
    expect((await send("PUT", "/v1/setting/abc", { name: "x" })).statusCode).toBe(400);
  });

  it("deletes, then 404s the same id", async () => {
    const created = (await send("POST", "/v1/setting", { name: "to delete" })).json();
    const res = await send("DELETE", `/v1/setting/${created.id}`);
    expect(res.json()).toEqual({ id: created.id, deleted: true });
    expect((await send("DELETE", `/v1/setting/${created.id}`)).statusCode).toBe(404);
    expect(
      (await send("DELETE", `/v1/setting/${created.id}`, undefined, anonymous)).statusCode,
    ).toBe(401);
  });

  it("Run now on a server without builds records and answers 'builds are not available on this server'", async () => {
    const created = (
      await send("POST", "/v1/setting", { name: "run me", cron: "0 3 * * *", template: TEMPLATE })
    ).json();
    const res = await send("POST", `/v1/setting/${created.id}/run`);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      kind: "manual",
      outcome: "unavailable",
      message: "builds are not available on this server",
    });
    const shown = (await list()).find((s: { id: number }) => s.id === created.id);
    expect(shown.recentSlots[0]).toMatchObject({ outcome: "unavailable" });
  });
});
