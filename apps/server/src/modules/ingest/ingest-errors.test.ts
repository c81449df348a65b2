import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp } from "../../../test/build-test-app.js";
import { createTestDatabase, type TestDatabase } from "../../../test/test-database.js";
import { fixturePart, storedCounts, TEST_INGEST_TOKEN, upload } from "../../../test/upload.js";

let database: TestDatabase;
let app: FastifyInstance;
let logs: Record<string, unknown>[];
let empty: Record<string, number>;

beforeAll(async () => {
  database = await createTestDatabase();
  ({ app, logs } = await buildTestApp(database.db, {
    env: { ASSAY_INGEST_TOKEN: TEST_INGEST_TOKEN, ASSAY_MAX_UPLOAD_MB: "1" },
  }));
  empty = await storedCounts(database.db.pool);
});
afterAll(async () => {
  await app.close();
  await database.drop();
});

/** Each refused upload must leave every table as it was. */
async function expectNothingStored() {
  expect(await storedCounts(database.db.pool)).toEqual(empty);
}

const XXE = `<?xml version="1.0"?>
<!DOCTYPE testsuites [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
<testsuites><testsuite name="s"><testcase name="&xxe;"/></testsuite></testsuites>`;

describe("refused uploads", () => {
  it("needs a service token: 401 without one, nothing stored", async () => {
    const res = await upload(app, [fixturePart("mocha", "mocha-report.json")], {}, {});
    expect(res.statusCode).toBe(401);
    expect(res.headers["www-authenticate"]).toContain("Bearer");
    expect(res.json().error.message).toContain("npx assay tokens create");
    await expectNothingStored();
  });

  it("refuses an unknown token with 401, and never logs it", async () => {
    const secret = "assay_not-a-real-token-value-1234567890";
    const res = await upload(
      app,
      [fixturePart("mocha", "mocha-report.json")],
      {},
      { authorization: `Bearer ${secret}` },
    );
    expect(res.statusCode).toBe(401);
    expect(JSON.stringify(logs)).not.toContain(secret);
    expect(JSON.stringify(logs)).not.toContain(TEST_INGEST_TOKEN);
    await expectNothingStored();
  });

  it("refuses XML with a DOCTYPE before parsing it", async () => {
    const res = await upload(app, [{ name: "evil.xml", content: XXE }], { format: "junit" });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe("invalid_report");
    expect(res.json().error.message).toMatch(/^evil\.xml.*DOCTYPE/);
    expect(res.body).not.toContain("root:");
    await expectNothingStored();
  });

  it("names the file, line and column of malformed JSON", async () => {
    const res = await upload(
      app,
      [{ name: "cucumber.json", content: '[{"elements": [\n  {"keyword": oops}\n]}]' }],
      {
        format: "cucumber",
      },
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({
      code: "invalid_report",
      details: { file: "cucumber.json", line: 2 },
    });
    expect(res.json().error.message).toMatch(
      /^cucumber\.json \(line 2, column \d+\): invalid JSON/,
    );
    await expectNothingStored();
  });

  it("lists the supported formats when no report is recognised", async () => {
    const res = await upload(app, [{ name: "notes.txt", content: "just some text" }]);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe(
      "No test report found among the uploaded files (notes.txt). Supported formats: junit, cucumber, allure, ctrf, playwright, mocha, locust.",
    );
    await expectNothingStored();
  });

  it("refuses an unknown format name, naming the allowed ones", async () => {
    const res = await upload(app, [fixturePart("mocha", "mocha-report.json")], { format: "nunit" });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toMatch(
      /^Invalid upload fields: format: Invalid option: expected one of "auto"\|"junit"/,
    );
    await expectNothingStored();
  });

  it("refuses JSON that tries prototype pollution", async () => {
    const res = await upload(
      app,
      [{ name: "m.json", content: '{"stats":{},"tests":[],"__proto__":{"x":1}}' }],
      {
        format: "mocha",
      },
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toContain("__proto__");
    await expectNothingStored();
  });

  it("stores nothing of an upload whose second report is broken", async () => {
    const res = await upload(
      app,
      [fixturePart("mocha", "mocha-report.json"), { name: "broken.json", content: '{"stats": {' }],
      {
        format: "mocha",
      },
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toMatch(/^broken\.json/);
    await expectNothingStored();
  });

  it("stores nothing of a report that breaks after batches were written, and assigns no test id", async () => {
    // 2,500 testcases: the first batches reach PostgreSQL before the parser meets the error.
    const cases = Array.from({ length: 2500 }, (_, i) => `<testcase classname="c" name="t${i}"/>`);
    const report = (tail: string) => `<testsuites><testsuite name="big">${cases.join("")}${tail}`;
    const broken = await upload(app, [{ name: "big.xml", content: report("<testcase") }]);
    expect(broken.statusCode).toBe(400);
    expect(broken.json().error.message).toMatch(/^big\.xml/);
    await expectNothingStored();

    // The same tests again: the ids the failed upload had drawn must not be reused from a cache.
    const good = await upload(app, [
      { name: "big.xml", content: report("</testsuite></testsuites>") },
    ]);
    expect(good.statusCode).toBe(201);
    const { rows } = await database.db.pool.query<{ results: string; with_test: string }>(
      `SELECT count(*) AS results, count(t.id) AS with_test
       FROM results r LEFT JOIN tests t ON t.id = r.test_id`,
    );
    expect(rows[0]).toEqual({ results: "2500", with_test: "2500" });
    await database.db.pool.query("TRUNCATE runs, results, tests CASCADE");
  });

  it("answers 413 for an upload over the configured limit", async () => {
    const big = Buffer.alloc(1024 * 1024 + 10, 0x20);
    const res = await upload(app, [{ name: "big.xml", content: big }]);
    expect(res.statusCode).toBe(413);
    expect(res.json().error.code).toBe("payload_too_large");
    await expectNothingStored();
  });

  it("answers 415 when the body is not multipart", async () => {
    const res = await app.inject({
      method: "POST",
      url: "/v1/ingest/reports",
      headers: { authorization: `Bearer ${TEST_INGEST_TOKEN}`, "content-type": "application/json" },
      payload: "{}",
    });
    expect(res.statusCode).toBe(415);
    await expectNothingStored();
  });

  it("refuses a load report sent as test results of another run family", async () => {
    const res = await upload(app, [fixturePart("mocha", "mocha-report.json")], { family: "load" });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe("family_mismatch");
    await expectNothingStored();
  });
});
