import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  buildBuildApp,
  insertBuildUser,
  RUNNER_ARGV,
  waitForEnd,
} from "../../../test/build-apps.js";
import { createTestDatabase, type TestDatabase } from "../../../test/test-database.js";

/**
 * Issue 33: Run now launched builds past the presser's build limit and recorded the scheduler
 * as their starter. It is the presser's build now, counted against their limit.
 */

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.drop();
});

const local = `{ kind: local, command: ${JSON.stringify(RUNNER_ARGV)} }`;
const BUILDS = `builds:\n  rateLimit: { builds: 2, perMinutes: 5 }\n  executors: { frontend: ${local}, china: ${local}, backend: ${local}, load: ${local} }\n`;
const TEMPLATE = { family: "backend", region: "US", payload: { env: "dev1", branch: "master" } };

describe("Run now", () => {
  it("records who pressed it and counts against their build limit (429 past it)", async () => {
    const user = await insertBuildUser(database, "presser@example.com");
    const app = await buildBuildApp(database, { user, builds: BUILDS });
    try {
      const setting = await app.app.inject({
        method: "POST",
        url: "/v1/setting",
        payload: { name: "Nightly API", template: TEMPLATE },
      });
      expect(setting.statusCode).toBe(201);
      const press = () =>
        app.app.inject({ method: "POST", url: `/v1/setting/${setting.json().id}/run` });
      const direct = await app.app.inject({
        method: "POST",
        url: "/v1/api/builds",
        payload: { env: "dev1", branch: "master" },
      });
      expect(direct.statusCode).toBe(201);
      const pressed = await press();
      expect(pressed.statusCode).toBe(201);
      expect(pressed.json()).toMatchObject({ kind: "manual", outcome: "launched" });
      for (let i = 0; i < 3; i++) {
        const refused = await press();
        expect(refused.statusCode).toBe(429);
        expect(refused.json().error.code).toBe("too_many_builds");
        expect(refused.json().error.message).toMatch(/the limit is 2/);
      }
      const { rows } = await database.db.pool.query(
        "SELECT started_by_id::int AS started_by_id, started_by_email, started_by_name FROM builds ORDER BY id",
      );
      expect(rows).toEqual([
        { started_by_id: user.id, started_by_email: user.email, started_by_name: user.name },
        { started_by_id: user.id, started_by_email: user.email, started_by_name: user.name },
      ]);
      // Ended before the app closes: a runner still starting would write its log into the
      // removed objects folder, which then stays behind in /tmp.
      const { rows: builds } = await database.db.pool.query<{ id: number }>(
        "SELECT id::int AS id FROM builds",
      );
      for (const { id } of builds) await waitForEnd(app.app, id);
    } finally {
      await app.close();
    }
  });
});
