import type { TraceabilityMatrix } from "@assay/core";
import { brotliDecompressSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTagApps, type TagApps } from "../../../test/tag-apps.js";
import { createTestDatabase, type TestDatabase } from "../../../test/test-database.js";
import { TEST_INGEST_TOKEN, upload } from "../../../test/upload.js";
import { DEFAULT_RMS_TAG_PATTERN } from "@assay/core";
import { MatrixCache, matrixEtag } from "./traceability.cache.js";
import { insertResult, insertRun, insertTest } from "../../../test/factories.js";
import { listCoverage, matrixDataVersion } from "./traceability.repo.js";
import { currentMatrix, refreshWatchedMatrix } from "./traceability.service.js";

/**
 * The matrix's answer is kept while its data version holds: the same ETag (304 to a client that
 * has it) until an upload, a requirements import, an edit or a dynamic tag changes what it
 * shows; then the next answer shows the change. Uploads go through the real ingest route.
 */

let database: TestDatabase;
let apps: TagApps;

/** A Cucumber report of one scenario (TC77) tagged with `rms`, passed or failed. */
function report(status: "passed" | "failed", rms = "@RMS-1") {
  const step = {
    keyword: "Given ",
    name: "the sign-in page",
    result: { status, duration: 1000, ...(status === "failed" ? { error_message: "boom" } : {}) },
  };
  return JSON.stringify([
    {
      uri: "features/login.feature",
      id: "login",
      keyword: "Feature",
      name: "Login",
      elements: [
        {
          id: "login;sso",
          keyword: "Scenario",
          name: "Sign in with SSO",
          type: "scenario",
          tags: [{ name: rms }, { name: "@TC77" }],
          steps: [step],
        },
      ],
    },
  ]);
}

const send = async (status: "passed" | "failed") => {
  const res = await upload(
    apps.withToken,
    [{ name: "cucumber.json", content: report(status) }],
    { format: "cucumber", family: "frontend" },
    { authorization: `Bearer ${TEST_INGEST_TOKEN}` },
  );
  expect(res.statusCode).toBe(201);
};
const get = (headers: Record<string, string> = {}) =>
  apps.anonymous.inject({ method: "GET", url: "/v1/traceability-matrix", headers });
const statusOf = (body: TraceabilityMatrix) => body.rows[0]?.testRuns[0]?.status;

beforeAll(async () => {
  database = await createTestDatabase();
  apps = await buildTagApps(database);
  const imported = await apps.user.inject({
    method: "POST",
    url: "/v1/traceability/rms/import",
    // Enough rows for an answer over the compression threshold (1 kB).
    payload: {
      fileName: "rms.csv",
      content: `rms,summary\nRMS-1,Sign in\nRMS-2,Sign out\n${Array.from(
        { length: 30 },
        (_, i) => `RMS-${100 + i},Requirement ${100 + i}\n`,
      ).join("")}`,
    },
  });
  expect(imported.statusCode).toBe(200);
});
afterAll(async () => {
  await apps.close();
  await database.drop();
});

describe("the kept matrix answer", () => {
  let etag: string;

  it("answers with an ETag, and 304 without a body to a client that has it", async () => {
    await send("passed");
    const first = await get();
    expect(first.statusCode).toBe(200);
    expect(statusOf(first.json())).toBe("passed");
    etag = String(first.headers.etag);
    expect(etag).toMatch(/^"m-/);
    expect(first.headers["cache-control"]).toBe("no-cache");
    const again = await get({ "if-none-match": etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe("");
    // The same bytes, compressed as a browser asks, are the same JSON.
    const br = await get({ "accept-encoding": "br" });
    expect(br.headers["content-encoding"]).toBe("br");
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString("utf8"))).toEqual(first.json());
  });

  it("shows a new upload's status at once, with a new ETag", async () => {
    await send("failed");
    const res = await get({ "if-none-match": etag });
    expect(res.statusCode).toBe(200);
    expect(statusOf(res.json())).toBe("failed");
    expect(res.json().rows[0].testRuns[0].errorMessage).toContain("boom");
    expect(res.headers.etag).not.toBe(etag);
    etag = String(res.headers.etag);
  });

  it("shows an edited note and a dynamic tag at once", async () => {
    const id = (await get()).json().rows[0].rmsDetail.id;
    const put = await apps.user.inject({
      method: "PUT",
      url: `/v1/traceability/rms/${id}`,
      payload: { note: "Reviewed", noTestNeeded: 0 },
    });
    expect(put.statusCode).toBe(200);
    const edited = await get({ "if-none-match": etag });
    expect(edited.statusCode).toBe(200);
    expect(edited.json().rows[0].rmsDetail.note).toBe("Reviewed");
    const testId = edited.json().rows[0].testRuns[0].testId;
    const tag = await apps.user.inject({
      method: "POST",
      url: "/v1/dtag",
      payload: { name: "@RMS-2", testId, testName: "Sign in with SSO" },
    });
    expect(tag.statusCode).toBe(201);
    const tagged = await get({ "if-none-match": String(edited.headers.etag) });
    expect(tagged.statusCode).toBe(200);
    expect(tagged.json().rows[1].testRuns.map((t: { testId: number }) => t.testId)).toEqual([
      testId,
    ]);
  });

  it("shows a new requirements import at once, and the CSV export follows it", async () => {
    const before = await get();
    const imported = await apps.user.inject({
      method: "POST",
      url: "/v1/traceability/rms/import",
      payload: { fileName: "next.csv", content: "rms,summary\nRMS-1,Sign in\nRMS-3,Audit\n" },
    });
    expect(imported.statusCode).toBe(200);
    const after = await get({ "if-none-match": String(before.headers.etag) });
    expect(after.statusCode).toBe(200);
    expect(after.json().rows.map((r: { rmsDetail: { rms: string } }) => r.rmsDetail.rms)).toEqual([
      "RMS-1",
      "RMS-3",
    ]);
    const csv = await apps.anonymous.inject({
      method: "GET",
      url: "/v1/traceability-matrix/export.csv",
    });
    expect(csv.body).toContain("next.csv");
    expect(csv.body).not.toContain("RMS-2,");
  });
});

describe("the background refresh", () => {
  it("builds a changed matrix ahead only while it is watched", async () => {
    const cache = new MatrixCache();
    const current = async () =>
      matrixEtag(await matrixDataVersion(database.db), DEFAULT_RMS_TAG_PATTERN);
    // Nobody asked yet: a change is left for the first request.
    await refreshWatchedMatrix(database.db, DEFAULT_RMS_TAG_PATTERN, cache);
    expect(cache.get(await current())).toBeUndefined();
    const first = await currentMatrix(database.db, DEFAULT_RMS_TAG_PATTERN, cache);
    expect(first.etag).toBe(await current());
    await send("passed");
    const changed = await current();
    expect(changed).not.toBe(first.etag);
    expect(cache.get(changed)).toBeUndefined();
    await refreshWatchedMatrix(database.db, DEFAULT_RMS_TAG_PATTERN, cache);
    const ready = cache.get(changed);
    expect(ready?.matrix.rows[0]?.testRuns[0]?.status).toBe("passed");
    // Compressed ahead too: the same buffer is handed out again.
    expect(await cache.encoded(ready!, "br")).toBe(await cache.encoded(ready!, "br"));
  });
});

describe("the coverage query", () => {
  it("takes a skipped latest result's older passed/failed one, and lists a test once", async () => {
    const [older, newer] = [await insertRun(database.db), await insertRun(database.db)];
    const skippedLately = await insertTest(database.db, { title: "Skipped lately" });
    await insertResult(database.db, older, skippedLately, {
      status: "failed",
      error_message: "older failure",
      tags: ["@RMS-3"],
      start_time: "2026-03-01T10:00:00Z",
    });
    await insertResult(database.db, newer, skippedLately, {
      status: "skipped",
      tags: ["@RMS-3", "@rms-3"],
      start_time: "2026-03-02T10:00:00Z",
    });
    // Tagged twice and through a dynamic tag too: still one test of RMS-3.
    const tag = await apps.user.inject({
      method: "POST",
      url: "/v1/dtag",
      payload: { name: "@RMS-3", testId: skippedLately.id },
    });
    expect(tag.statusCode).toBe(201);
    const rows = await listCoverage(database.db, DEFAULT_RMS_TAG_PATTERN);
    const rms3 = (await get())
      .json()
      .rows.find((row: { rmsDetail: { rms: string } }) => row.rmsDetail.rms === "RMS-3");
    expect(rows.filter((row) => row.test_id === skippedLately.id)).toEqual([
      expect.objectContaining({ status: "failed", error_message: "older failure" }),
    ]);
    expect(rms3.testRuns).toEqual([
      {
        testId: skippedLately.id,
        name: "Skipped lately",
        filePath: null,
        suitePath: [],
        status: "failed",
        errorMessage: "older failure",
      },
    ]);
  });
});
