import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunFailureGroup } from "@assay/core";
import { buildTestApp } from "../../../test/build-test-app.js";
import { createTestDatabase, type TestDatabase } from "../../../test/test-database.js";
import { fixturePart, TEST_INGEST_TOKEN, upload } from "../../../test/upload.js";
import { IMAGE_CAP } from "./report.shots.js";

/** The run report as one HTML file: a download, self-contained, with every test, steps and errors. */

let database: TestDatabase;
let app: FastifyInstance;

beforeAll(async () => {
  database = await createTestDatabase();
  app = (
    await buildTestApp(database.db, {
      env: { ASSAY_INGEST_TOKEN: TEST_INGEST_TOKEN, ASSAY_PUBLIC_URL: "https://assay.example.com" },
      startWorkers: false,
    })
  ).app;
  const res = await upload(app, [fixturePart("cucumber", "cucumber-report.json")], {
    family: "frontend",
    run_key: "report-1",
    test_run_name: "Nightly <UI>",
  });
  expect(res.statusCode).toBe(201);
  // jest-junit.xml's two failures each refer to a screenshot: one as the reporter wrote it, one
  // standing for a full-page capture too large to inline.
  const shots = await upload(
    app,
    [
      fixturePart("junit", "jest-junit.xml"),
      fixturePart("junit", "screenshots/applies-a-discount.png"),
      {
        name: "screenshots/charges-the-card.png",
        content: Buffer.concat([DISCOUNT_PNG.subarray(0, 16), Buffer.alloc(IMAGE_CAP + 1)]),
      },
    ],
    { family: "frontend", run_key: "report-2" },
  );
  expect(shots.statusCode, shots.body).toBe(201);
  expect(shots.json().attachments).toBe(2);
}, 120_000);

const DECLINED =
  '<failure message="card is undefined" type="TypeError">TypeError: card is undefined\n    at Context.&lt;anonymous&gt; (test/cards.spec.js:12:7)</failure>';
const ROUNDED =
  '<failure message="expected 10.5 to equal 11" type="AssertionError">AssertionError: expected 10.5 to equal 11\n    at Context.&lt;anonymous&gt; (test/cards.spec.js:30:9)</failure>';

/** A mocha-junit-reporter file of the given test cases (name, failure element or ""). */
const junit = (cases: readonly (readonly [string, string])[]) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites><testsuite name="Cards" tests="${cases.length}">${cases
    .map(
      ([name, failure]) =>
        `<testcase name="${name}" classname="Cards" time="0.01">${failure}</testcase>`,
    )
    .join("")}</testsuite></testsuites>`;

const DISCOUNT_PNG = fixturePart("junit", "screenshots/applies-a-discount.png").content as Buffer;

afterAll(async () => {
  await app?.close();
  await database?.drop();
});

describe("GET /v1/test-runs/{key}/report.html", () => {
  it("answers one self-contained HTML file with counts, failures, every test's steps and errors", async () => {
    const res = await app.inject({ method: "GET", url: "/v1/test-runs/report-1/report.html" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(res.headers["content-disposition"]).toBe('attachment; filename="assay-report-1.html"');
    const body = res.body;
    // Nothing to fetch: no script, no link, no external source.
    expect(body).not.toMatch(/<script|<link|src="http/);
    expect(body).toContain("<title>Nightly &lt;UI&gt; — Assay run report</title>");
    const details = body.match(/<details /g) ?? [];
    const failures = Number(/<h2>Failures \((\d+)\) by cause \(\d+\)<\/h2>/.exec(body)?.[1]);
    const every = Number(/<h2>Every test \((\d+)\)<\/h2>/.exec(body)?.[1]);
    expect(every).toBeGreaterThan(0);
    expect(details).toHaveLength(every + failures);
    expect(body).toMatch(/<ol><li class="s">✓ /);
    expect(failures).toBeGreaterThan(0);
    expect(body).toMatch(/<details class="failed"><summary><b>✗ failed<\/b>.*<pre>\S/s);
    // cucumber-js dates nothing: the tests' time summed, named as such.
    expect(body).toContain("<span>Tests' time <b>");
  });

  it("inlines screenshots when asked, each once, and says which were left out and why", async () => {
    const url = "/v1/test-runs/report-2/report.html";
    const plain = (await app.inject({ method: "GET", url })).body;
    expect(plain).not.toContain("<img");
    // A week-old JUnit file's suite start to its tests' end, as the run list shows it.
    expect(plain).toContain("<span>Duration <b>0s</b></span>");
    const body = (await app.inject({ method: "GET", url: `${url}?screenshots=true` })).body;
    const images = body.match(/<img src="data:image\/png;base64,[^"]+"/g) ?? [];
    expect(images).toEqual([`<img src="data:image/png;base64,${DISCOUNT_PNG.toString("base64")}"`]);
    expect(body).toMatch(
      /Screenshot charges-the-card\.png left out: 1\.0 MB, over the 1\.0 MB a report inlines\. See it in Assay: <a href="https:\/\/assay\.example\.com\/v1\/objects\/attachments\/[^"]+\.png">/,
    );
    const wrong = await app.inject({ method: "GET", url: `${url}?screenshots=maybe` });
    expect(wrong.statusCode).toBe(400);
  });

  it("lists the failures by triage's failure groups, each with its cause, count, age and tests", async () => {
    // Last night one card test failed; tonight two fail of the same cause and a new cause appears.
    for (const [key, cases] of [
      ["report-3-before", [["declines an expired card", DECLINED]]],
      [
        "report-3",
        [
          ["declines an expired card", DECLINED],
          ["declines a stolen card", DECLINED],
          ["rounds the total", ROUNDED],
          ["lists the cart", ""],
        ],
      ],
    ] as const) {
      const res = await upload(app, [{ name: "junit.xml", content: junit(cases) }], {
        family: "frontend",
        run_key: key,
        test_run_name: "Cards",
      });
      expect(res.statusCode, res.body).toBe(201);
    }
    const groups = (
      await app.inject({ method: "GET", url: "/v1/runs/report-3/failure-groups" })
    ).json<RunFailureGroup[]>();
    expect(groups.map((g) => [g.message, g.count, g.isNew])).toEqual([
      ["card is undefined", 2, false],
      ["expected 10.5 to equal 11", 1, true],
    ]);
    const body = (await app.inject({ method: "GET", url: "/v1/test-runs/report-3/report.html" }))
      .body;
    expect(body).toContain("<h2>Failures (3) by cause (2)</h2>");
    const sections = body.match(/<section class="g">.*?<\/section>/gs) ?? [];
    expect(sections).toHaveLength(2);
    const names = (section: string) =>
      [...section.matchAll(/<\/b> (.*?) <i>/g)].map((match) => match[1]).sort();
    expect(sections[0]).toMatch(/^<section class="g"><h3>TypeError: card is undefined<\/h3>/);
    expect(sections[0]).toContain("2 failed");
    expect(sections[0]).toMatch(/Known: first seen on \d{4}-\d\d-\d\d in run report-3-before/);
    expect(names(sections[0]!)).toEqual(["declines a stolen card", "declines an expired card"]);
    expect(sections[1]).toMatch(/<h3>AssertionError: expected 10\.5 to equal 11<\/h3>/);
    expect(sections[1]).toContain(
      '1 failed</span> · <span class="new">New: first seen in this run',
    );
    expect(names(sections[1]!)).toEqual(["rounds the total"]);
    expect(body).not.toContain("Not grouped");
  });

  it("answers 404 in words for an unknown run", async () => {
    const res = await app.inject({ method: "GET", url: "/v1/test-runs/nope/report.html" });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.message).toBe("No run with key nope.");
  });
});
