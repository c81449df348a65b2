import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildBuildApp, insertBuildUser, type BuildApp } from "../../../test/build-apps.js";
import { createTestDatabase, type TestDatabase } from "../../../test/test-database.js";

/**
 * Issue 33.7: a public instance does not publish its staff's addresses. Signed-out readers of the
 * build lists and of a build see who started it by name; signed-in users see the email too.
 */

let database: TestDatabase;
let app: BuildApp;

beforeAll(async () => {
  database = await createTestDatabase();
  app = await buildBuildApp(database, {
    user: await insertBuildUser(database, "lead.engineer@example.com"),
    startWorkers: false,
  });
});
afterAll(async () => {
  await app?.close();
  await database?.drop();
});

const get = (url: string, signedOut: boolean) =>
  app.app.inject({
    method: "GET",
    url,
    headers: signedOut ? { "x-test-signed-out": "1" } : {},
  });

describe("people in build lists", () => {
  it("shows a name to signed-out readers, and the email only when signed in", async () => {
    const created = await app.app.inject({
      method: "POST",
      url: "/v1/builds",
      payload: {
        nora_site: "dev1.example.com",
        mode: "by_tags",
        tag: "@smoke",
        translationReportToEmail: "reports.team@example.com",
      },
    });
    expect(created.statusCode).toBe(201);
    const id: number = created.json().build.id;

    const signedIn = (await get("/v1/builds", false)).json().items[0];
    expect(signedIn.startedBy).toEqual({ email: "lead.engineer@example.com", name: "QA Engineer" });
    expect(signedIn.payload.translationReportToEmail).toBe("reports.team@example.com");

    for (const url of ["/v1/builds", `/v1/builds/${id}`]) {
      const res = await get(url, true);
      expect(res.statusCode).toBe(200);
      const build = url === "/v1/builds" ? res.json().items[0] : res.json();
      expect(build.startedBy).toEqual({ email: null, name: "QA Engineer" });
      expect(build.payload).toMatchObject({ nora_site: "dev1.example.com", tag: "@smoke" });
      expect(res.body).not.toMatch(/lead\.engineer|reports\.team/);
    }
  });
});
