import type { TraceabilityMatrix } from "@assay/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertResult, insertRun, insertTest } from "../../../test/factories.js";
import { buildTagApps, QA_USER, type TagApps } from "../../../test/tag-apps.js";
import { createTestDatabase, type TestDatabase } from "../../../test/test-database.js";
import { TEST_INGEST_TOKEN } from "../../../test/upload.js";

let database: TestDatabase;
let apps: TagApps;

const CSV = [
  "rms,summary,epic,type,bugs",
  'RMS-1,Sign in with SSO,Access,Story,"NXL-10|SSO loops|Open; NXL-11|Logout fails|Closed"',
  "RMS-2,Export a report,Reports,Story,",
  "RMS-3,Audit trail,Compliance,Requirement,",
  "ERROR,Broken import row,,,",
].join("\n");

const importFile = (fileName: string, content: string, app = apps.user) =>
  app.inject({
    method: "POST",
    url: "/v1/traceability/rms/import",
    payload: { fileName, content },
  });
const matrix = async (): Promise<TraceabilityMatrix> =>
  (await apps.anonymous.inject({ method: "GET", url: "/v1/traceability-matrix" })).json();
const rowOf = (body: TraceabilityMatrix, rms: string) =>
  body.rows.find((row) => row.rmsDetail.rms === rms);
const requirementCount = async () =>
  Number(
    (await database.db.pool.query<{ n: string }>("SELECT count(*) AS n FROM requirements")).rows[0]
      ?.n,
  );

beforeAll(async () => {
  database = await createTestDatabase();
  apps = await buildTagApps(database);
});
afterAll(async () => {
  await apps.close();
  await database.drop();
});

describe("before any import", () => {
  it("answers no rows and no source, so the screen can say nothing was imported", async () => {
    expect(await matrix()).toEqual({ source: null, rows: [] });
  });
});

describe("POST /v1/traceability/rms/import", () => {
  it("refuses a signed-out caller with 401 and stores nothing", async () => {
    const res = await importFile("rms.csv", CSV, apps.anonymous);
    expect(res.statusCode).toBe(401);
    expect(await requirementCount()).toBe(0);
  });

  it("refuses a file with a bad row with a 400 naming the row, and stores nothing", async () => {
    const res = await importFile("rms.csv", "rms,summary\nRMS-1,ok\n,missing key\n");
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toContain("Row 3");
    expect(await requirementCount()).toBe(0);
  });

  it("refuses a CSV without the rms column, and JSON that is not an array", async () => {
    const noKey = await importFile("rms.csv", "key,summary\nRMS-1,x\n");
    expect(noKey.statusCode).toBe(400);
    expect(noKey.json().error.message).toContain("rms");
    const notArray = await importFile("rms.json", '{"rms":"RMS-1"}');
    expect(notArray.statusCode).toBe(400);
    expect(notArray.json().error.message).toContain("array");
    const other = await importFile("rms.txt", "rms\nRMS-1");
    expect(other.statusCode).toBe(400);
    expect(await requirementCount()).toBe(0);
  });

  it("accepts a service token with the ingest scope (the CLI's way)", async () => {
    const res = await apps.withToken.inject({
      method: "POST",
      url: "/v1/traceability/rms/import",
      headers: { authorization: `Bearer ${TEST_INGEST_TOKEN}` },
      payload: { fileName: "first.json", content: JSON.stringify([{ rms: "RMS-9" }]) },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ fileName: "first.json", requirements: 1, removed: 0 });
  });

  it("stores a CSV's requirements and bugs, replacing the previous file's set", async () => {
    const res = await importFile("rms.csv", CSV);

    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ requirements: 4, bugs: 2, removed: 1 });
    const body = await matrix();
    expect(body.source).toMatchObject({ kind: "file", fileName: "rms.csv" });
    expect(body.rows.map((row) => row.rmsDetail.rms)).toEqual(["RMS-1", "RMS-2", "RMS-3", "ERROR"]);
    expect(rowOf(body, "RMS-1")).toMatchObject({
      rmsDetail: { summary: "Sign in with SSO", epic: "Access", type: "Story", noTestNeeded: 0 },
      linkedBugs: [
        { key: "NXL-10", fields: { summary: "SSO loops", status: { name: "Open" } } },
        { key: "NXL-11", fields: { summary: "Logout fails", status: { name: "Closed" } } },
      ],
    });
  });
});

describe("GET /v1/traceability-matrix", () => {
  let runOld: { id: number; test_run_key: string };
  let runNew: { id: number; test_run_key: string };
  let login: { id: number; title: string };
  let logout: { id: number; title: string };
  let never: { id: number; title: string };

  beforeAll(async () => {
    runOld = await insertRun(database.db);
    runNew = await insertRun(database.db);
    login = await insertTest(database.db, { title: "Login with SSO", file: "tests/login.spec.ts" });
    logout = await insertTest(database.db, { title: "Logout" });
    never = await insertTest(database.db, { title: "Export CSV" });
    // login: failed long ago, passed lately -> passed; its tag names RMS-1 (lower case too).
    await insertResult(database.db, runOld, login, {
      status: "failed",
      error_message: "old failure",
      tags: ["@rms-1"],
      start_time: "2026-01-01T10:00:00Z",
    });
    await insertResult(database.db, runNew, login, {
      status: "passed",
      tags: ["@RMS-1", "@smoke"],
      start_time: "2026-02-01T10:00:00Z",
    });
    // logout: passed, then failed lately -> failed with its message.
    await insertResult(database.db, runOld, logout, {
      status: "passed",
      tags: ["@RMS-1"],
      start_time: "2026-01-01T10:00:00Z",
    });
    await insertResult(database.db, runNew, logout, {
      status: "failed",
      error_message: "Expected the sign-in page",
      tags: ["@RMS-1"],
      start_time: "2026-02-01T10:00:00Z",
    });
    // never: only a skipped result -> null (not run); covers RMS-2 through a dynamic tag.
    await insertResult(database.db, runNew, never, {
      status: "skipped",
      start_time: "2026-02-01T10:00:00Z",
    });
    const tag = await apps.user.inject({
      method: "POST",
      url: "/v1/dtag",
      payload: { name: "@RMS-2", testId: never.id, testName: never.title },
    });
    expect(tag.statusCode).toBe(201);
  });

  it("lists each requirement's tests with the status of their latest result", async () => {
    const body = await matrix();
    expect(rowOf(body, "RMS-1")?.testRuns).toEqual([
      {
        testId: login.id,
        name: "Login with SSO",
        filePath: "tests/login.spec.ts",
        suitePath: [],
        status: "passed",
        errorMessage: null,
      },
      {
        testId: logout.id,
        name: "Logout",
        filePath: null,
        suitePath: [],
        status: "failed",
        errorMessage: "Expected the sign-in page",
      },
    ]);
    expect(rowOf(body, "RMS-2")?.testRuns).toEqual([
      {
        testId: never.id,
        name: "Export CSV",
        filePath: null,
        suitePath: [],
        status: null,
        errorMessage: null,
      },
    ]);
    expect(rowOf(body, "RMS-3")?.testRuns).toEqual([]);
  });

  it("exports the matrix as CSV: tests with status, bugs, source and export time", async () => {
    const res = await apps.anonymous.inject({
      method: "GET",
      url: "/v1/traceability-matrix/export.csv",
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(res.headers["content-disposition"]).toMatch(
      /^attachment; filename="traceability-matrix-/,
    );
    const lines = res.body.trimEnd().split("\r\n");
    expect(lines[0]).toBe(
      "rms,summary,epic,type,no_test_needed,note,tests,passed,failed,not_run,test_statuses,linked_bugs,source,exported_at",
    );
    const rms1 = lines.find((line) => line.startsWith("RMS-1,"));
    expect(rms1).toContain(
      `2,1,1,0,TC${login.id}:passed; TC${logout.id}:failed,NXL-10 (Open); NXL-11 (Closed),file: rms.csv`,
    );
    expect(lines.find((line) => line.startsWith("RMS-2,"))).toContain(`TC${never.id}:not run`);
  });

  it("counts only tags matching the configured pattern: '@smoke' covers nothing", async () => {
    const body = await matrix();
    const all = body.rows.flatMap((row) => row.testRuns);
    expect(all).toHaveLength(3);
  });

  it("follows a test's latest tags: a tag dropped from the newest result no longer covers", async () => {
    const run = await insertRun(database.db);
    await insertResult(database.db, run, logout, {
      status: "passed",
      tags: [],
      start_time: "2026-03-01T10:00:00Z",
    });
    const body = await matrix();
    expect(rowOf(body, "RMS-1")?.testRuns.map((t) => t.testId)).toEqual([login.id]);
  });
});

describe("GET /v1/traceability/test-history", () => {
  it("lists a test's results newest first with their run key and result id", async () => {
    const run = await insertRun(database.db);
    const test = await insertTest(database.db, { title: "History test" });
    const first = await insertResult(database.db, run, test, {
      status: "failed",
      start_time: "2026-01-01T08:00:00Z",
    });
    const run2 = await insertRun(database.db);
    const second = await insertResult(database.db, run2, test, {
      status: "passed",
      start_time: "2026-01-02T08:00:00Z",
    });

    const res = await apps.anonymous.inject({
      method: "GET",
      url: `/v1/traceability/test-history?testId=${test.id}`,
    });

    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([
      {
        start_time: "2026-01-02T08:00:00.000Z",
        status: "passed",
        test_run_key: run2.test_run_key,
        test_run_test_id: second.test_run_test_id,
      },
      {
        start_time: "2026-01-01T08:00:00.000Z",
        status: "failed",
        test_run_key: run.test_run_key,
        test_run_test_id: first.test_run_test_id,
      },
    ]);
  });

  it("answers 400 for a testId that is not a number", async () => {
    const res = await apps.anonymous.inject({
      method: "GET",
      url: "/v1/traceability/test-history?testId=abc",
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toContain("testId");
  });
});

describe("PUT /v1/traceability/rms/{id}", () => {
  const idOf = async (rms: string) => rowOf(await matrix(), rms)!.rmsDetail.id;
  const put = (id: number, payload: unknown, app = apps.user) =>
    app.inject({
      method: "PUT",
      url: `/v1/traceability/rms/${id}`,
      payload: payload as Record<string, unknown>,
    });

  it("refuses a signed-out caller (401) and a service token (403), changing nothing", async () => {
    const id = await idOf("RMS-3");
    expect((await put(id, { note: "x", noTestNeeded: 1 }, apps.anonymous)).statusCode).toBe(401);
    const token = await apps.withToken.inject({
      method: "PUT",
      url: `/v1/traceability/rms/${id}`,
      headers: { authorization: `Bearer ${TEST_INGEST_TOKEN}` },
      payload: { note: "x", noTestNeeded: 1 },
    });
    expect(token.statusCode).toBe(403);
    expect(rowOf(await matrix(), "RMS-3")?.rmsDetail).toMatchObject({ note: "", noTestNeeded: 0 });
  });

  it("answers 404 for an unknown id and 400 for a bad flag", async () => {
    expect((await put(999999, { note: "x", noTestNeeded: 0 })).statusCode).toBe(404);
    const bad = await put(await idOf("RMS-3"), { note: "x", noTestNeeded: 2 });
    expect(bad.statusCode).toBe(400);
  });

  it("refuses a note over its limit with a sentence in the field's words, changing nothing", async () => {
    const id = await idOf("RMS-3");
    const res = await put(id, { note: "x".repeat(20_000), noTestNeeded: 0 });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({
      code: "invalid_request",
      message: "The note can be at most 4,000 characters.",
    });
    expect(rowOf(await matrix(), "RMS-3")?.rmsDetail).toMatchObject({ note: "" });
  });

  it("saves the note and flag, records who and when, and keeps the previous values", async () => {
    const id = await idOf("RMS-3");

    const first = await put(id, { note: "Covered by manual OQ", noTestNeeded: 1 });
    const second = await put(id, { note: "Automated next sprint", noTestNeeded: 0 });

    expect(first.statusCode).toBe(200);
    expect(second.json()).toMatchObject({ id, note: "Automated next sprint", noTestNeeded: 0 });
    const history = (
      await apps.anonymous.inject({ method: "GET", url: `/v1/traceability/rms/${id}/history` })
    ).json();
    expect(history).toMatchObject([
      {
        previousNote: "Covered by manual OQ",
        previousNoTestNeeded: 1,
        note: "Automated next sprint",
        noTestNeeded: 0,
        editedBy: QA_USER.kind === "user" ? QA_USER.email : "",
      },
      { previousNote: "", previousNoTestNeeded: 0, note: "Covered by manual OQ", noTestNeeded: 1 },
    ]);
    expect(Date.parse(history[0].editedAt)).toBeGreaterThan(Date.now() - 60_000);
  });

  it("keeps notes and flags when the same requirements are imported again", async () => {
    const id = await idOf("RMS-3");
    await put(id, { note: "kept", noTestNeeded: 1 });

    expect((await importFile("rms.csv", CSV)).statusCode).toBe(200);

    expect(rowOf(await matrix(), "RMS-3")?.rmsDetail).toMatchObject({
      id,
      note: "kept",
      noTestNeeded: 1,
    });
  });
});
