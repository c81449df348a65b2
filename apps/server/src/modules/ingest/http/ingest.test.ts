import { readdirSync } from "node:fs";
import type { FastifyInstance } from "fastify";
import { describe, expect, it } from "vitest";
import { useIngestApp } from "../../../../test/ingest-app.js";
import type { TestDatabase } from "../../../../test/test-database.js";
import { createToken } from "../../tokens/tokens.service.js";
import {
  fixturePart,
  RESULT_FACTS_SQL,
  storedCounts,
  TEST_INGEST_TOKEN,
  upload,
} from "../../../../test/upload.js";
import { FIXTURES_DIR } from "../parsers/test-files.js";
import { nameOf } from "../../../db/results-sql.js";

let database: TestDatabase;
let app: FastifyInstance;

useIngestApp((made) => ({ database, app } = made));

async function finalResults(key: string) {
  const { rows } = await database.db.pool.query(
    `SELECT ${nameOf("r")} AS name, r.status, r.attempt, r.is_final, r.flaky, r.test_id::int
     FROM results r JOIN runs ON runs.id = r.run_id WHERE runs.test_run_key = $1 ORDER BY name, r.attempt`,
    [key],
  );
  return rows as {
    name: string;
    status: string;
    attempt: number;
    is_final: boolean;
    flaky: boolean;
    test_id: number;
  }[];
}

describe("POST /v1/ingest/reports, one real report of each format", () => {
  it.each([
    [
      "cucumber",
      ["cucumber-report.json"],
      { total: 6, passed: 3, failed: 2, pending: 1, flaky: 0 },
      6,
      5,
    ],
    [
      "mocha",
      ["mocha-report.json"],
      { total: 5, passed: 2, failed: 2, pending: 1, flaky: 0 },
      5,
      0,
    ],
    ["playwright", ["report.json"], { total: 7, passed: 5, failed: 1, pending: 1, flaky: 1 }, 9, 1],
    ["ctrf", ["ctrf-report.json"], { total: 7, passed: 5, failed: 1, pending: 1, flaky: 1 }, 9, 0],
    [
      "allure",
      ["allure-results.zip"],
      { total: 6, passed: 2, failed: 3, pending: 1, flaky: 1 },
      7,
      1,
    ],
  ] as const)(
    "stores %s with its counts, attempts and attachments",
    async (format, files, counts, inserted, attachments) => {
      const res = await upload(
        app,
        files.map((f) => fixturePart(format, f)),
      );
      expect(res.statusCode).toBe(201);
      const body = res.json();
      expect(body.formats).toEqual([format]);
      expect(body.counts).toEqual(counts);
      expect(body.inserted).toBe(inserted);
      expect(body.attachments).toBe(attachments);
      const rows = await finalResults(body.test_run_key);
      expect(rows).toHaveLength(inserted);
      expect(rows.filter((r) => r.is_final)).toHaveLength(counts.total);
      expect(rows.filter((r) => r.flaky)).toHaveLength(counts.flaky);
    },
  );

  it("stores an Allure results folder uploaded file by file like its zip", async () => {
    const names = readdirSync(`${FIXTURES_DIR}allure/results`);
    const res = await upload(
      app,
      names.map((n) => fixturePart("allure", `results/${n}`, `allure-results/${n}`)),
    );
    expect(res.statusCode).toBe(201);
    expect(res.json().counts).toEqual({ total: 6, passed: 2, failed: 3, pending: 1, flaky: 1 });
    expect(res.json().attachments).toBe(1);
  });

  it("stores a Locust run as a load run with per-endpoint statistics and its HTML report", async () => {
    const res = await upload(
      app,
      [fixturePart("locust", "run_stats.csv"), fixturePart("locust", "report.html")],
      {
        env: "stage",
        host: "https://stage.example.com",
        test_file: "locustfiles/nextgen/patient_login.py",
        users: "5",
        run_time: "10s",
        spawn_rate: "5",
        load_region: "us-west-2",
      },
    );
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      family: "load",
      formats: ["locust"],
      counts: { total: 90, failed: 34 },
    });
    const { rows } = await database.db.pool.query(
      `SELECT runs.users, runs.spawn_rate, runs.report_location, count(s.*)::int AS endpoints
       FROM runs JOIN load_stats s ON s.run_id = runs.id WHERE runs.test_run_key = $1 GROUP BY runs.id`,
      [res.json().test_run_key],
    );
    expect(rows[0]).toMatchObject({ users: 5, spawn_rate: 5, endpoints: 5 });
    const report = await app.inject({ method: "GET", url: rows[0].report_location });
    expect(report.statusCode).toBe(200);
    expect(report.body).toContain("Locust");
  });
});

describe("run facts", () => {
  it("gives results the run's site, branch, commit and executor when their report has none", async () => {
    const res = await upload(app, [fixturePart("cucumber", "cucumber-report.json")], {
      nora_site: "stage.example.com",
      branch: "release/7.4",
      commit: "9f8e7d6",
      executor: "daily robot executor",
    });
    const { rows } = await database.db.pool.query(
      `SELECT DISTINCT ${RESULT_FACTS_SQL}
       FROM results r JOIN runs ON runs.id = r.run_id WHERE runs.test_run_key = $1`,
      [res.json().test_run_key],
    );
    expect(rows).toEqual([
      {
        nora_site: "stage.example.com",
        branch: "release/7.4",
        commit_hash: "9f8e7d6",
        executor: "daily robot executor",
      },
    ]);
  });
});

describe("identity and duplicates", () => {
  it("changes nothing when the same report is uploaded to the same run again", async () => {
    const first = await upload(app, [fixturePart("cucumber", "cucumber-report.json")], {
      run_key: "repeat-1",
    });
    expect(first.statusCode).toBe(201);
    const before = await storedCounts(database.db.pool);
    const again = await upload(app, [fixturePart("cucumber", "cucumber-report.json")], {
      run_key: "repeat-1",
    });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ inserted: 0, duplicates: 6, counts: first.json().counts });
    const after = await storedCounts(database.db.pool);
    expect({ ...after, idempotency_keys: 0 }).toEqual({ ...before, idempotency_keys: 0 });
  });

  it("merges shards sent with one run key into one run", async () => {
    await upload(app, [fixturePart("mocha", "mocha-report.json")], { run_key: "sharded-7" });
    const res = await upload(app, [fixturePart("cucumber", "cucumber-report.json")], {
      run_key: "sharded-7",
    });
    expect(res.json().counts.total).toBe(11);
  });

  it("keeps a test's assigned id across runs, and uses ids the report carries", async () => {
    const a = await upload(app, [fixturePart("mocha", "mocha-report.json")]);
    const b = await upload(app, [fixturePart("mocha", "mocha-report.json")]);
    const idsA = (await finalResults(a.json().test_run_key)).map((r) => [r.name, r.test_id]);
    const idsB = (await finalResults(b.json().test_run_key)).map((r) => [r.name, r.test_id]);
    expect(idsB).toEqual(idsA);
    expect(new Set(idsA.map(([, id]) => id)).size).toBe(idsA.length);
  });
});

describe("idempotency", () => {
  it("answers a retried upload with the first answer, and refuses the key for other content", async () => {
    const headers = {
      authorization: `Bearer ${TEST_INGEST_TOKEN}`,
      "idempotency-key": "upload-abc-1",
    };
    const first = await upload(app, [fixturePart("mocha", "mocha-report.json")], {}, headers);
    const before = await storedCounts(database.db.pool);
    const retry = await upload(app, [fixturePart("mocha", "mocha-report.json")], {}, headers);
    expect(retry.statusCode).toBe(first.statusCode);
    expect(retry.json()).toEqual(first.json());
    expect(await storedCounts(database.db.pool)).toEqual(before);
    const other = await upload(app, [fixturePart("cucumber", "cucumber-report.json")], {}, headers);
    expect(other.statusCode).toBe(422);
    expect(other.json().error.code).toBe("idempotency_key_reused");
    expect(await storedCounts(database.db.pool)).toEqual(before);
  });

  it("documents the upload form and the live batch's two content types at /docs", async () => {
    const spec = (await app.inject({ method: "GET", url: "/docs/json" })).json();
    const form =
      spec.paths["/v1/ingest/reports"].post.requestBody.content["multipart/form-data"].schema;
    expect(form.properties.file).toMatchObject({ type: "array", items: { format: "binary" } });
    expect(Object.keys(form.properties)).toEqual(
      expect.arrayContaining(["format", "run_key", "family", "nora_site", "branch"]),
    );
    const append = spec.paths["/v1/ingest/runs/{key}/results"].post.requestBody.content;
    expect(Object.keys(append).sort()).toEqual(["application/json", "application/x-ndjson"]);
  });

  it("keeps an Idempotency-Key to the client that sent it, for 24 hours", async () => {
    const key = { "idempotency-key": "nightly-42" };
    const mine = { authorization: `Bearer ${TEST_INGEST_TOKEN}`, ...key };
    const first = await upload(app, [fixturePart("mocha", "mocha-report.json")], {}, mine);
    expect(first.statusCode).toBe(201);
    // Another CI job's token with the same key: its own upload, neither a replay nor a 422.
    const { token } = await createToken(database.db.kysely, "other-ci", ["ingest"]);
    const theirs = { authorization: `Bearer ${token}`, ...key };
    const other = await upload(app, [fixturePart("cucumber", "cucumber-report.json")], {}, theirs);
    expect(other.statusCode).toBe(201);
    expect(other.json().test_run_key).not.toBe(first.json().test_run_key);
    // A day later the key is free again: other content is a new upload.
    await database.db.pool.query(
      "UPDATE idempotency_keys SET created_at = created_at - interval '25 hours' WHERE key = 'nightly-42'",
    );
    const later = await upload(app, [fixturePart("cucumber", "cucumber-report.json")], {}, mine);
    expect(later.statusCode).toBe(201);
    const { rows } = await database.db.pool.query(
      "SELECT client, created_at > now() - interval '1 hour' AS fresh FROM idempotency_keys WHERE key = 'nightly-42' ORDER BY client",
    );
    // The other client's expired key was forgotten; this one's holds the new answer.
    expect(rows).toEqual([{ client: "token:ASSAY_INGEST_TOKEN", fresh: true }]);
  });
});
