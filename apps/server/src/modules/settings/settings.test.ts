import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp } from "../../../test/build-test-app.js";
import { QA_USER } from "../../../test/tag-apps.js";
import { createTestDatabase, type TestDatabase } from "../../../test/test-database.js";

/** The /v1/setting routes on the real app: the spec's validation, sign-in, who changed what. */

let database: TestDatabase;
let user: FastifyInstance;
let anonymous: FastifyInstance;

const TEMPLATE = { family: "backend", region: "US", payload: { env: "stage", branch: "master" } };

beforeAll(async () => {
  database = await createTestDatabase();
  // Run now records the presser: a real user row.
  const row = await database.db.kysely
    .insertInto("users")
    .values({ email: "qa@example.com", name: "QA Engineer" })
    .returning("id")
    .executeTakeFirstOrThrow();
  const presser = { ...QA_USER, id: row.id } as typeof QA_USER;
  user = (
    await buildTestApp(database.db, { resolvePrincipal: async () => presser, startWorkers: false })
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

const send = (
  method: "GET" | "POST" | "PUT" | "DELETE",
  url: string,
  payload?: unknown,
  app = user,
) => app.inject({ method, url, payload: payload as Record<string, unknown> });
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

  it("refuses a schedule more frequent than the minimum (15 minutes by default)", async () => {
    const before = await count();
    // "*/5 9 * * *" is hourly apart from 9 to 10: the densest stretch counts, not the average.
    for (const cron of [
      "* * * * *",
      "*/5 * * * *",
      "*/14 * * * *",
      "*/5 9 * * *",
      "0,10 2 * * *",
    ]) {
      const res = await send("POST", "/v1/setting", { name: "x", cron, template: TEMPLATE });
      expect(res.statusCode, cron).toBe(400);
      expect(res.json().error.message).toContain("a schedule may run at most every 15 minutes");
    }
    expect(await count()).toBe(before);
    for (const cron of ["*/15 * * * *", "0 * * * *", "0,15,30,45 9 * * 1-5"]) {
      const res = await send("POST", "/v1/setting", {
        name: `ok ${cron}`,
        cron,
        template: TEMPLATE,
      });
      expect(res.statusCode, cron).toBe(201);
    }
    const saved = (
      await send("POST", "/v1/setting", { name: "later", cron: "0 2 * * *", template: TEMPLATE })
    ).json();
    const edited = await send("PUT", `/v1/setting/${saved.id}`, {
      name: "later",
      cron: "*/2 * * * *",
      template: TEMPLATE,
    });
    expect(edited.statusCode).toBe(400);
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

  it("shows people by name to signed-out readers, with emails only when signed in", async () => {
    // qa@example.com ("QA Engineer") is the user beforeAll made for Run now.
    const template = {
      family: "frontend",
      region: "US",
      payload: {
        nora_site: "dev1.example.com",
        mode: "by_tags",
        tag: "@smoke",
        translationReportToEmail: "reports.team@example.com",
      },
    };
    const created = (
      await send("POST", "/v1/setting", { name: "people", cron: "0 3 * * *", template })
    ).json();
    const signedIn = (await send("GET", "/v1/setting")).json();
    expect(signedIn.find((s: { id: number }) => s.id === created.id)).toMatchObject({
      createdBy: "qa@example.com",
      updatedBy: "qa@example.com",
      template: { payload: { translationReportToEmail: "reports.team@example.com" } },
    });
    const res = await anonymous.inject({ method: "GET", url: "/v1/setting" });
    const shown = res.json().find((s: { id: number }) => s.id === created.id);
    expect(shown).toMatchObject({ createdBy: "QA Engineer", updatedBy: "QA Engineer" });
    expect(shown.template.payload).toEqual({
      nora_site: "dev1.example.com",
      mode: "by_tags",
      tag: "@smoke",
    });
    expect(res.body).not.toMatch(/qa@example\.com|reports\.team/);
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

  it("Run now launches the schedule's build through the builds service, as the daily robot", async () => {
    const created = (
      await send("POST", "/v1/setting", { name: "run me", cron: "0 3 * * *", template: TEMPLATE })
    ).json();
    const res = await send("POST", `/v1/setting/${created.id}/run`);
    expect(res.statusCode).toBe(201);
    const slot = res.json();
    expect(slot.message).toBeNull();
    expect(slot).toMatchObject({ kind: "manual", outcome: "launched" });
    const builds = (await send("GET", "/v1/api/builds")).json();
    const build = builds.items.find((b: { id: number }) => String(b.id) === slot.buildId);
    expect(build).toMatchObject({
      EXECUTOR: "daily robot executor",
      ENVIRONMENT: "stage",
      test_run_key: slot.testRunKey,
    });
    const shown = (await list()).find((s: { id: number }) => s.id === created.id);
    expect(shown.recentSlots[0]).toMatchObject({
      outcome: "launched",
      buildId: slot.buildId,
      buildStatus: build.buildStatus,
    });
  });

  it("Run now of a setting without a build answers 409 in words and records no slot", async () => {
    const created = (await send("POST", "/v1/setting", { name: "no build yet" })).json();
    const res = await send("POST", `/v1/setting/${created.id}/run`);
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toMatchObject({
      code: "no_build",
      message: "“no build yet” has no build to run: edit it and choose its build first.",
    });
    const shown = (await list()).find((s: { id: number }) => s.id === created.id);
    expect(shown.recentSlots).toEqual([]);
  });

  it("refuses a name or description over its limit with a sentence in the field's words", async () => {
    const long = await send("POST", "/v1/setting", { name: "n".repeat(201) });
    expect(long.statusCode).toBe(400);
    expect(long.json().error.message).toBe("The name can be at most 200 characters.");
    const description = await send("POST", "/v1/setting", {
      name: "ok",
      description: "d".repeat(2001),
    });
    expect(description.json().error.message).toBe(
      "The description can be at most 2,000 characters.",
    );
  });

  it("refuses a template its dialog's rules refuse when saved, with the dialog's message", async () => {
    const bad = { family: "backend", region: "US", payload: { env: "stage", branch: "a..b" } };
    const before = await count();
    const res = await send("POST", "/v1/setting", {
      name: "bad template",
      cron: "0 3 * * *",
      template: bad,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({ code: "invalid_build" });
    expect(res.json().error.message).toContain("branch");
    expect(await count()).toBe(before);
  });

  it("saves the Frontend dialog's choices as a schedule, and Run now launches that build", async () => {
    // What 'Save as schedule' in the Create Frontend Build dialog sends (By Test Tags, Legacy).
    const template = {
      family: "frontend",
      region: "US",
      payload: {
        mode: "by_tags",
        parallel_runners: 2,
        branch: "release/5.1",
        tag: "@smoke",
        nora_site: "stage.legacy.example.com",
        isNextGen: false,
      },
    };
    const res = await send("POST", "/v1/setting", {
      name: "from the dialog",
      cron: "30 1 * * *",
      timeZone: "Europe/Berlin",
      template,
      rerunFailures: true,
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      template,
      rerunFailures: true,
      scheduleText: "At 01:30 (Europe/Berlin)",
    });
    const slot = (await send("POST", `/v1/setting/${res.json().id}/run`)).json();
    const builds = (await send("GET", "/v1/builds")).json();
    const build = builds.items.find((b: { id: number }) => String(b.id) === slot.buildId);
    expect(build).toMatchObject({
      NORA_SITE: "stage.legacy.example.com",
      TEST_TAG: "@smoke",
      sourceVersion: "release/5.1",
      EXECUTOR: "daily robot executor",
      // Run now is the presser's build (issue 33); only a slot is the scheduler's.
      startedBy: { name: "QA Engineer" },
    });
  });

  it("records a template the rules refuse by launch time as a failed launch, and starts nothing", async () => {
    const created = (
      await send("POST", "/v1/setting", { name: "went bad", cron: "0 3 * * *", template: TEMPLATE })
    ).json();
    // Saved when it was valid; a template stored before the rules changed is refused at launch.
    const bad = { family: "backend", region: "US", payload: { env: "stage", branch: "a..b" } };
    await database.db.pool.query("UPDATE settings SET template = $1 WHERE id = $2", [
      JSON.stringify(bad),
      created.id,
    ]);
    const before = (await send("GET", "/v1/api/builds")).json().total;
    const slot = (await send("POST", `/v1/setting/${created.id}/run`)).json();
    expect(slot.outcome).toBe("failed");
    expect(slot.message).toContain("branch");
    expect((await send("GET", "/v1/api/builds")).json().total).toBe(before);
  });
});
