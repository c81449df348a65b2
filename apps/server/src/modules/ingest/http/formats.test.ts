import { REPORT_FORMAT_SOURCES, REPORT_FORMATS } from "@assay/core";
import type { FastifyInstance } from "fastify";
import { describe, expect, it } from "vitest";
import { useIngestApp } from "../../../../test/ingest-app.js";
import type { TestDatabase } from "../../../../test/test-database.js";
import { fixturePart, storedCounts, upload } from "../../../../test/upload.js";
import { nameOf } from "../../../db/results-sql.js";

/*
 * Issue #37: the report formats of .NET (TRX, NUnit, xUnit.net), TestNG, Go, RSpec and Dart,
 * uploaded as `assay upload` sends them and detected from their content. The counts are each
 * tool's own (see each fixture folder's README for the summary line the tool printed).
 */

let database: TestDatabase;
let app: FastifyInstance;

useIngestApp((made) => ({ database, app } = made));

const PNG = {
  trx: "In/0b1a4c7e-5d2f-4c39-9f4e-0d7a1e2b3c41/checkout.png",
  nunit: "screens/cart.png",
};

describe("POST /v1/ingest/reports with the formats of issue 37", () => {
  it.each([
    [
      "trx",
      "mstest.trx",
      [PNG.trx],
      { total: 8, passed: 2, failed: 4, pending: 2, flaky: 0 },
      8,
      1,
    ],
    [
      "nunit",
      "nunit3-TestResult.xml",
      [PNG.nunit],
      { total: 8, passed: 3, failed: 3, pending: 2, flaky: 0 },
      8,
      1,
    ],
    [
      "nunit",
      "nunit2-TestResult.xml",
      [],
      { total: 7, passed: 2, failed: 3, pending: 2, flaky: 0 },
      7,
      0,
    ],
    ["xunit", "xunit-v2.xml", [], { total: 8, passed: 2, failed: 4, pending: 2, flaky: 0 }, 8, 0],
    [
      "testng",
      "testng-results.xml",
      [],
      { total: 9, passed: 3, failed: 3, pending: 3, flaky: 0 },
      9,
      0,
    ],
    ["gotest", "go-test.json", [], { total: 9, passed: 4, failed: 4, pending: 1, flaky: 0 }, 9, 0],
    [
      "gotest",
      "gotestsum.json",
      [],
      { total: 8, passed: 4, failed: 3, pending: 1, flaky: 0 },
      8,
      0,
    ],
    [
      "gotest",
      "go-test-count2.json",
      [],
      { total: 2, passed: 1, failed: 0, pending: 1, flaky: 0 },
      4,
      0,
    ],
    ["rspec", "rspec.json", [], { total: 7, passed: 3, failed: 2, pending: 2, flaky: 0 }, 7, 0],
    [
      "rspec",
      "rspec-load-error.json",
      [],
      { total: 1, passed: 0, failed: 1, pending: 0, flaky: 0 },
      1,
      0,
    ],
    ["dart", "dart-test.json", [], { total: 7, passed: 2, failed: 4, pending: 1, flaky: 0 }, 7, 0],
  ] as const)(
    "detects %s in %s and stores it with the tool's counts",
    async (format, file, attachments, counts, inserted, stored) => {
      const res = await upload(app, [
        fixturePart(format, file),
        ...attachments.map((name) => fixturePart(format, name)),
      ]);
      expect(res.statusCode).toBe(201);
      const body = res.json();
      expect(body.formats).toEqual([format]);
      expect(body.counts).toEqual(counts);
      expect(body.inserted).toBe(inserted);
      expect(body.attachments).toBe(stored);
      // The report's own totals agree with what it lists: no warning.
      expect(body.warnings ?? []).toEqual([]);
    },
  );

  it("keeps go's -count=2 runs as attempts of one test", async () => {
    const res = await upload(app, [fixturePart("gotest", "go-test-count2.json")]);
    const { rows } = await database.db.pool.query(
      `SELECT ${nameOf("r")} AS name, r.attempt, r.is_final FROM results r JOIN runs ON runs.id = r.run_id
       WHERE runs.test_run_key = $1 ORDER BY name, r.attempt`,
      [res.json().test_run_key],
    );
    expect(rows).toEqual([
      { name: "TestAdd", attempt: 0, is_final: false },
      { name: "TestAdd", attempt: 1, is_final: true },
      { name: "TestSkipped", attempt: 0, is_final: false },
      { name: "TestSkipped", attempt: 1, is_final: true },
    ]);
  });
});

describe("/docs", () => {
  it("lists every format of the upload with the command that writes it", async () => {
    const spec = (await app.inject({ method: "GET", url: "/docs/json" })).json();
    const form =
      spec.paths["/v1/ingest/reports"].post.requestBody.content["multipart/form-data"].schema;
    const format = form.properties.format;
    expect(format.enum).toEqual(["auto", ...REPORT_FORMATS]);
    for (const name of REPORT_FORMATS) {
      expect(format.description).toContain(`${name}: ${REPORT_FORMAT_SOURCES[name]}`);
    }
    expect(format.description).toContain("dotnet test --logger trx");
    expect(format.description).toContain("go test -json");
    expect(format.description).toContain("flutter test --machine");
  });
});

describe("malformed reports of these formats", () => {
  it.each([
    [
      "results.trx",
      '<TestRun xmlns="x">\n<Results>\n<UnitTestResult testName="a" outcome="Passed">\n</TestRun>',
      4,
    ],
    [
      "TestResult.xml",
      '<test-run total="1">\n<test-case name="a" result="Passed">\n</test-run>',
      3,
    ],
    ["xunit.xml", "<assemblies>\n<assembly>\n<test name='a' result='Pass'>\n</assemblies>", 4],
    ["testng-results.xml", "<testng-results>\n<suite>\n<test-method status='PASS'></suite>", 3],
    [
      "go-test.json",
      '{"Action":"run","Package":"p","Test":"T"}\n{"Action":"pass","Package":"p","Test":"T"\n',
      2,
    ],
    [
      "dart.json",
      '{"protocolVersion":"0.1.1","type":"start","time":0}\n{"type":"suite","suite":{"id":0}}\n{"type":"testStart",\n',
      3,
    ],
    ["rspec.json", '{"version":"3.12.0","examples":[\n{"description":"a",}\n]}', 2],
  ])("refuses %s with a 400 naming the line, storing nothing", async (name, content, line) => {
    const before = await storedCounts(database.db.pool);
    const res = await upload(app, [{ name, content }]);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe("invalid_report");
    expect(res.json().error.details).toMatchObject({ file: name, line });
    expect(res.json().error.message).toMatch(
      new RegExp(`^${name.replace(".", "\\.")} \\(line ${line}`),
    );
    expect(await storedCounts(database.db.pool)).toEqual(before);
  });
});
