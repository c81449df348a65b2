import { BUILD_MESSAGES } from "@assay/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  buildBuildApp,
  insertBuildUser,
  waitForEnd,
  type BuildApp,
} from "../../../test/build-apps.js";
import { createTestDatabase, type TestDatabase } from "../../../test/test-database.js";

/**
 * Payloads as the spec's clients send them (issue 32 item 16): every field of the frontend
 * payload, the ones the run type does not use as "". Those read as absent; unknown fields and
 * a used field left empty are still refused.
 */

let database: TestDatabase;
let app: BuildApp;

beforeAll(async () => {
  database = await createTestDatabase();
  app = await buildBuildApp(database, { user: await insertBuildUser(database) });
});
afterAll(async () => {
  await app?.close();
  await database.drop();
});

const post = (url: string, payload: unknown) =>
  app.app.inject({ method: "POST", url, payload: payload as object });
const buildCount = async () =>
  Number((await database.db.pool.query("SELECT count(*) AS n FROM builds")).rows[0].n);

/** The spec's full frontend payload (section 3) for a Run All build: unused fields empty. */
const FULL_FRONTEND = {
  branch: "master",
  tag: "",
  nora_site: "dev1.example.com",
  database_host: "",
  parallel_runners: 2,
  executor: "",
  enable_coverage: false,
  mode: "run_all",
  spiraCredentialsString: "",
  isNextGen: false,
  releaseId: "",
  translationLanguageCode: [],
  translationReportToEmail: "",
  numberOfPatientsCreated: "",
};

describe("POST /v1/builds with the spec's full payload", () => {
  it("accepts empty strings of the fields the run type does not use, as absent", async () => {
    const res = await post("/v1/builds", FULL_FRONTEND);
    expect(res.statusCode, res.body).toBe(201);
    const build = res.json().build;
    expect(build).toMatchObject({ mode: "run_all", NORA_SITE: "dev1.example.com", TEST_TAG: null });
    expect(build.payload).not.toHaveProperty("tag");
    expect(build.payload).not.toHaveProperty("database_host");
    expect(build.payload).not.toHaveProperty("spiraCredentialsString");
    await waitForEnd(app.app, build.id);
  });

  it("accepts the backend and load payloads with empty unused fields", async () => {
    const backend = await post("/v1/api/builds", {
      parallel_runners: 1,
      branch: "master",
      env: "dev1",
      tag: "",
      executor: "",
    });
    expect(backend.statusCode, backend.body).toBe(201);
    await waitForEnd(app.app, backend.json().build.id);
  });

  it("still asks for a tag when By Test Tags gets an empty one, and records nothing", async () => {
    const before = await buildCount();
    const res = await post("/v1/builds", { ...FULL_FRONTEND, mode: "by_tags" });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe(`tag: ${BUILD_MESSAGES.tagRequired}`);
    expect(await buildCount()).toBe(before);
  });

  it("still refuses unknown fields and credentials sent in the payload", async () => {
    const before = await buildCount();
    for (const extra of [{ colour: "" }, { colour: "blue" }, { spiraCredentialsString: "u:p" }]) {
      const res = await post("/v1/builds", { ...FULL_FRONTEND, ...extra });
      expect(res.statusCode, JSON.stringify(extra)).toBe(400);
      expect(res.json().error.message).toMatch(/Unrecognized key/i);
    }
    expect(await buildCount()).toBe(before);
  });
});
