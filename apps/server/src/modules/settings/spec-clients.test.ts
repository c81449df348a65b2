import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp } from "../../../test/build-test-app.js";
import { QA_USER } from "../../../test/tag-apps.js";
import { createTestDatabase, type TestDatabase } from "../../../test/test-database.js";

/**
 * /v1/setting as the spec's clients call it (issue 32 item 16): PUT with the object GET answered
 * (read-only fields included), DELETE with Content-Type: application/json and no body.
 */

let database: TestDatabase;
let app: FastifyInstance;

beforeAll(async () => {
  database = await createTestDatabase();
  app = (
    await buildTestApp(database.db, { resolvePrincipal: async () => QA_USER, startWorkers: false })
  ).app;
});
afterAll(async () => {
  await app.close();
  await database.drop();
});

const TEMPLATE = { family: "backend", region: "US", payload: { env: "stage", branch: "master" } };

async function create(name: string) {
  const res = await app.inject({
    method: "POST",
    url: "/v1/setting",
    payload: { name, cron: "0 2 * * *", template: TEMPLATE },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: number };
}

describe("PUT /v1/setting/{id} with what GET returned", () => {
  it("ignores the read-only fields and saves the writable ones", async () => {
    const { id } = await create("Nightly API");
    const listed = (await app.inject({ method: "GET", url: "/v1/setting" })).json();
    const read = listed.find((s: { id: number }) => s.id === id);
    expect(read).toHaveProperty("nextRuns");
    const res = await app.inject({
      method: "PUT",
      url: `/v1/setting/${id}`,
      payload: { ...read, description: "edited", id: 999_999, updatedBy: "someone else" },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id, description: "edited", updatedBy: "qa@example.com" });
  });

  it("still refuses a field that is neither writable nor read-only", async () => {
    const { id } = await create("Nightly refused");
    const res = await app.inject({
      method: "PUT",
      url: `/v1/setting/${id}`,
      payload: { name: "x", colour: "blue" },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toMatch(/colour/);
  });
});

describe("DELETE /v1/setting/{id} with a JSON content type and no body", () => {
  it("deletes the setting", async () => {
    const { id } = await create("To delete");
    const res = await app.inject({
      method: "DELETE",
      url: `/v1/setting/${id}`,
      headers: { "content-type": "application/json" },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ id, deleted: true });
  });

  it("a POST with a JSON content type and no body is refused in words, not as a parse error", async () => {
    const res = await app.inject({
      method: "POST",
      url: "/v1/setting",
      headers: { "content-type": "application/json" },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe("invalid_request");
  });
});
