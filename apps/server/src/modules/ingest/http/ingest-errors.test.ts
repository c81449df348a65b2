import { mkdtemp, readdir, rm } from "node:fs/promises";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import FormData from "form-data";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp } from "../../../../test/build-test-app.js";
import { createTestDatabase, type TestDatabase } from "../../../../test/test-database.js";
import { LocalObjectStore } from "../../../storage/local-store.js";
import { fixturePart, storedCounts, TEST_INGEST_TOKEN, upload } from "../../../../test/upload.js";

let database: TestDatabase;
let app: FastifyInstance;
let logs: Record<string, unknown>[];
let empty: Record<string, number>;
const limited = { ASSAY_INGEST_TOKEN: TEST_INGEST_TOKEN, ASSAY_MAX_UPLOAD_MB: "1" };

beforeAll(async () => {
  database = await createTestDatabase();
  ({ app, logs } = await buildTestApp(database.db, { env: limited }));
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

  it("says why an XML file with a DOCTYPE naming another root is no report", async () => {
    const lolz = `<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]>
<lolz>&lol2;</lolz>`;
    const res = await upload(app, [{ name: "lolz.xml", content: lolz }]);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe("no_report");
    expect(res.json().error.message).toContain(
      "lolz.xml starts with a DOCTYPE, which Assay refuses in XML (entities and DTDs are never read): remove it.",
    );
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
      "No test report found among the uploaded files (notes.txt). Supported formats: junit, cucumber, allure, ctrf, playwright, mocha, locust, trx, nunit, xunit, testng, gotest, rspec, dart.",
    );
    await expectNothingStored();
  });

  it("refuses an unknown format name, naming the allowed ones", async () => {
    const res = await upload(app, [fixturePart("mocha", "mocha-report.json")], { format: "tap" });
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

  it("answers 413 for a live batch over the upload limit, storing none of it", async () => {
    const headers = { authorization: `Bearer ${TEST_INGEST_TOKEN}` };
    await app.inject({
      method: "POST",
      url: "/v1/ingest/runs",
      headers,
      payload: { run_key: "big-batch" },
    });
    const before = await storedCounts(database.db.pool);
    const results = Array.from({ length: 2000 }, (_, i) => ({
      name: `test ${i} ${"x".repeat(500)}`,
      status: "passed",
    }));
    for (const [type, payload] of [
      ["application/json", JSON.stringify(results)],
      ["application/x-ndjson", results.map((r) => JSON.stringify(r)).join("\n")],
    ]) {
      const res = await app.inject({
        method: "POST",
        url: "/v1/ingest/runs/big-batch/results",
        headers: { ...headers, "content-type": type! },
        payload,
      });
      expect(res.statusCode).toBe(413);
      expect(res.json().error.code).toBe("payload_too_large");
    }
    expect(await storedCounts(database.db.pool)).toEqual(before);
    await database.db.pool.query("TRUNCATE runs, results, tests CASCADE");
  });

  it("answers 413 for a live attachment over the limit, keeping neither row nor object", async () => {
    const objectsDir = await mkdtemp(path.join(tmpdir(), "assay-test-objects-"));
    const objects = new LocalObjectStore(objectsDir);
    await objects.init();
    const live = (await buildTestApp(database.db, { env: limited, objects })).app;
    try {
      const headers = { authorization: `Bearer ${TEST_INGEST_TOKEN}` };
      await live.inject({
        method: "POST",
        url: "/v1/ingest/runs",
        headers,
        payload: { run_key: "big-attachment" },
      });
      await live.inject({
        method: "POST",
        url: "/v1/ingest/runs/big-attachment/results",
        headers,
        payload: [{ test_run_test_id: "t1", name: "t1", status: "failed" }],
      });
      const before = await storedCounts(database.db.pool);
      const form = new FormData();
      form.append("file", Buffer.alloc(1024 * 1024 + 10, 0x20), {
        filename: "big.png",
        contentType: "image/png",
      });
      const res = await live.inject({
        method: "POST",
        url: "/v1/ingest/runs/big-attachment/results/t1/attachments",
        headers: { ...headers, ...form.getHeaders() },
        payload: form.getBuffer(),
      });
      expect(res.statusCode).toBe(413);
      expect(res.json().error.message).toContain("upload limit of 1 MB");
      // Over a socket, in pieces: the limit is passed while the store is writing the file.
      const address = await live.listen({ port: 0, host: "127.0.0.1" });
      const streamed = await new Promise<number>((resolve, reject) => {
        const request = http.request(
          `${address}/v1/ingest/runs/big-attachment/results/t1/attachments`,
          {
            method: "POST",
            headers: { ...headers, "content-type": "multipart/form-data; boundary=b0" },
          },
          (response) => {
            resolve(response.statusCode ?? 0);
            request.destroy();
          },
        );
        request.on("error", (error) => (request.destroyed ? undefined : reject(error)));
        request.write(
          '--b0\r\nContent-Disposition: form-data; name="file"; filename="big.png"\r\n',
        );
        request.write("Content-Type: image/png\r\n\r\n");
        const piece = Buffer.alloc(64 * 1024, 0x20);
        let sent = 0;
        const next = () => {
          if (request.destroyed) return;
          if (sent++ < 24) {
            request.write(piece);
            setTimeout(next, 5);
          } else request.end("\r\n--b0--\r\n");
        };
        next();
      });
      expect(streamed).toBe(413);
      expect(await storedCounts(database.db.pool)).toEqual(before);
      const files = await readdir(objectsDir, { recursive: true, withFileTypes: true });
      expect(files.filter((f) => f.isFile())).toEqual([]);
    } finally {
      // The server stopped reading the refused body, so it never sees the client go: its side of
      // the connection would hold close() open.
      live.server.closeAllConnections();
      await live.close();
      await rm(objectsDir, { recursive: true, force: true });
      await database.db.pool.query("TRUNCATE runs, results, tests CASCADE");
    }
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
