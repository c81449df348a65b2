import type { TraceabilityMatrix } from "@assay/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertResult, insertRun, insertTest, type TestRef } from "../../../test/factories.js";
import { buildTagApps, QA_USER, type TagApps } from "../../../test/tag-apps.js";
import { createTestDatabase, type TestDatabase } from "../../../test/test-database.js";
import { TEST_INGEST_TOKEN } from "../../../test/upload.js";

// Links edited on the matrix screen: a signed-in user links a test to a requirement and removes
// the link; the matrix's tests and coverage follow, and every link stays as history.

let database: TestDatabase;
let apps: TagApps;
let tagged: TestRef;
let manual: TestRef;
let neverRan: TestRef;
const QA_EMAIL = QA_USER.kind === "user" ? QA_USER.email : "";

const CSV = [
  "rms,summary,epic,type",
  "RMS-1,Sign in,Access,Story",
  "rms-2,Export,Reports,Story",
  "ERROR,Broken row,,",
].join("\n");

const matrix = async (): Promise<TraceabilityMatrix> =>
  (await apps.anonymous.inject({ method: "GET", url: "/v1/traceability-matrix" })).json();
const rowOf = async (rms: string) =>
  (await matrix()).rows.find((row) => row.rmsDetail.rms === rms)!;
const idOf = async (rms: string) => (await rowOf(rms)).rmsDetail.id;
const link = (id: number, testId: unknown, app = apps.user) =>
  app.inject({
    method: "POST",
    url: `/v1/traceability/rms/${id}/links`,
    payload: { testId } as Record<string, unknown>,
  });
const unlink = (id: number, testId: number | string, app = apps.user) =>
  app.inject({ method: "DELETE", url: `/v1/traceability/rms/${id}/links/${testId}` });
const links = async (id: number) =>
  (await apps.anonymous.inject({ method: "GET", url: `/v1/traceability/rms/${id}/links` })).json();
const linkRows = async () =>
  Number(
    (
      await database.db.pool.query<{ n: string }>(
        "SELECT count(*) AS n FROM requirement_test_links",
      )
    ).rows[0]?.n,
  );

beforeAll(async () => {
  database = await createTestDatabase();
  apps = await buildTagApps(database);
  const imported = await apps.user.inject({
    method: "POST",
    url: "/v1/traceability/rms/import",
    payload: { fileName: "rms.csv", content: CSV },
  });
  expect(imported.statusCode).toBe(200);
  const run = await insertRun(database.db);
  tagged = await insertTest(database.db, {
    title: "Tagged sign-in",
    file: "tests/sign-in.spec.ts",
  });
  manual = await insertTest(database.db, { title: "Manual export", file: "tests/export.spec.ts" });
  neverRan = await insertTest(database.db, { title: "Never ran" });
  await insertResult(database.db, run, tagged, { status: "passed", tags: ["@RMS-1"] });
  await insertResult(database.db, run, manual, {
    status: "failed",
    error_message: "Expected a CSV",
    tags: [],
  });
});
afterAll(async () => {
  await apps.close();
  await database.drop();
});

describe("POST /v1/traceability/rms/{id}/links", () => {
  it("refuses a signed-out caller (401) and a service token (403), storing nothing", async () => {
    const id = await idOf("rms-2");
    expect((await link(id, manual.id, apps.anonymous)).statusCode).toBe(401);
    const token = await apps.withToken.inject({
      method: "POST",
      url: `/v1/traceability/rms/${id}/links`,
      headers: { authorization: `Bearer ${TEST_INGEST_TOKEN}` },
      payload: { testId: manual.id },
    });
    expect(token.statusCode).toBe(403);
    expect(await linkRows()).toBe(0);
  });

  it("says what was wrong for a bad test id, an unknown test or requirement, and ERROR", async () => {
    const id = await idOf("rms-2");
    const bad = await link(id, "login");
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toContain("testId is a test's number, e.g. 1042 or TC1042");
    const unknownTest = await link(id, 987654321);
    expect(unknownTest.statusCode).toBe(404);
    expect(unknownTest.json().error.message).toContain("No test TC987654321");
    const unknownRms = await link(999999, manual.id);
    expect(unknownRms.statusCode).toBe(404);
    expect(unknownRms.json().error.message).toContain("No requirement with id 999999");
    const broken = await link(await idOf("ERROR"), manual.id);
    expect(broken.statusCode).toBe(400);
    expect(broken.json().error.message).toContain("broken row of the requirements import");
    expect(await linkRows()).toBe(0);
  });

  it("links a test given as TC{id}, recording who and when; the matrix covers the row", async () => {
    const id = await idOf("rms-2");
    expect((await rowOf("rms-2")).testRuns).toEqual([]);

    const res = await link(id, `TC${manual.id}`);

    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({
      rms: "RMS-2",
      testId: manual.id,
      testName: "Manual export",
      linkedBy: QA_EMAIL,
      removedBy: null,
      removedAt: null,
    });
    expect(Date.parse(body.linkedAt)).toBeGreaterThan(Date.now() - 60_000);
    expect((await rowOf("rms-2")).testRuns).toEqual([
      {
        testId: manual.id,
        name: "Manual export",
        filePath: "tests/export.spec.ts",
        suitePath: [],
        status: "failed",
        errorMessage: "Expected a CSV",
        link: { linkedBy: QA_EMAIL, linkedAt: body.linkedAt },
      },
    ]);
  });

  it("answers 409 when the test is already linked, storing no second link", async () => {
    const id = await idOf("rms-2");
    const again = await link(id, manual.id);
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe(`TC${manual.id} is already linked to RMS-2.`);
    expect(await linkRows()).toBe(1);
  });

  it("notes the link on a test its tag already covers, listing it once; a never-run test is null", async () => {
    const id = await idOf("RMS-1");
    expect((await link(id, tagged.id)).statusCode).toBe(201);
    expect((await link(id, neverRan.id)).statusCode).toBe(201);

    const runs = (await rowOf("RMS-1")).testRuns;
    expect(runs.map((run) => [run.testId, run.status, run.link?.linkedBy])).toEqual([
      [tagged.id, "passed", QA_EMAIL],
      [neverRan.id, null, QA_EMAIL],
    ]);
  });
});

describe("DELETE /v1/traceability/rms/{id}/links/{testId}", () => {
  it("refuses a signed-out caller, leaving the link live", async () => {
    const id = await idOf("rms-2");
    expect((await unlink(id, manual.id, apps.anonymous)).statusCode).toBe(401);
    expect((await rowOf("rms-2")).testRuns).toHaveLength(1);
  });

  it("removes the link: the row is no longer covered, and the link is kept as history", async () => {
    const id = await idOf("rms-2");

    const res = await unlink(id, `TC${manual.id}`);

    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ testId: manual.id, removedBy: QA_EMAIL });
    expect((await rowOf("rms-2")).testRuns).toEqual([]);
    const history = await links(id);
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({
      rms: "RMS-2",
      testId: manual.id,
      testName: "Manual export",
      linkedBy: QA_EMAIL,
      removedBy: QA_EMAIL,
    });
    expect(Date.parse(history[0].removedAt)).toBeGreaterThanOrEqual(
      Date.parse(history[0].linkedAt),
    );
  });

  it("answers 404 when the test is not linked on the screen (a tag's coverage stays)", async () => {
    const id = await idOf("rms-2");
    const res = await unlink(id, manual.id);
    expect(res.statusCode).toBe(404);
    expect(res.json().error.message).toContain(`TC${manual.id} is not linked to RMS-2`);
    expect((await unlink(id, "abc")).statusCode).toBe(400);
  });

  it("keeps a tagged test covering after its screen link is removed", async () => {
    const id = await idOf("RMS-1");
    expect((await unlink(id, tagged.id)).statusCode).toBe(200);
    const runs = (await rowOf("RMS-1")).testRuns;
    expect(runs.map((run) => [run.testId, run.link?.linkedBy ?? null])).toEqual([
      [tagged.id, null],
      [neverRan.id, QA_EMAIL],
    ]);
  });

  it("links again after a removal, listing both links newest first", async () => {
    const id = await idOf("rms-2");
    expect((await link(id, manual.id)).statusCode).toBe(201);
    const history = await links(id);
    expect(history.map((entry: { removedBy: string | null }) => entry.removedBy)).toEqual([
      null,
      QA_EMAIL,
    ]);
    expect((await rowOf("rms-2")).testRuns.map((run) => run.testId)).toEqual([manual.id]);
  });
});

describe("links and imports", () => {
  it("keeps links by the requirement's key when it leaves an import and comes back", async () => {
    const without = "rms,summary\nRMS-1,Sign in\n";
    await apps.user.inject({
      method: "POST",
      url: "/v1/traceability/rms/import",
      payload: { fileName: "rms.csv", content: without },
    });
    expect((await matrix()).rows.map((row) => row.rmsDetail.rms)).toEqual(["RMS-1"]);

    await apps.user.inject({
      method: "POST",
      url: "/v1/traceability/rms/import",
      payload: { fileName: "rms.csv", content: CSV },
    });

    expect((await rowOf("rms-2")).testRuns.map((run) => run.testId)).toEqual([manual.id]);
  });

  it("answers 404 for the links of an unknown requirement", async () => {
    const res = await apps.anonymous.inject({
      method: "GET",
      url: "/v1/traceability/rms/999999/links",
    });
    expect(res.statusCode).toBe(404);
  });
});
