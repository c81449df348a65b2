import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, type TestApp } from "../../../test/build-test-app.js";
import { createTestDatabase, type TestDatabase } from "../../../test/test-database.js";
import { markDemoLoaded, markDemoStarted } from "./instance.service.js";

let database: TestDatabase;
let testApp: TestApp;

beforeAll(async () => {
  database = await createTestDatabase();
  testApp = await buildTestApp(database.db);
});

afterAll(async () => {
  await testApp.app.close();
  await database.drop();
});

async function instance() {
  const res = await testApp.app.inject({ method: "GET", url: "/v1/instance" });
  expect(res.statusCode).toBe(200);
  return res.json();
}

describe("GET /v1/instance", () => {
  it("says a new installation has no demo data", async () => {
    expect(await instance()).toEqual({ demo: false, demo_loaded_at: null });
  });

  it("says demo as soon as the demo load starts, and when it completed", async () => {
    await markDemoStarted(database.db);
    expect(await instance()).toEqual({ demo: true, demo_loaded_at: null });
    await markDemoLoaded(database.db, new Date("2026-03-10T15:00:00Z"));
    expect(await instance()).toEqual({ demo: true, demo_loaded_at: "2026-03-10T15:00:00.000Z" });
  });
});
