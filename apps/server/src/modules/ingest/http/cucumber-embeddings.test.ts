import { readFileSync } from "node:fs";
import type { FastifyInstance } from "fastify";
import { expect, it } from "vitest";
import { useIngestApp } from "../../../../test/ingest-app.js";
import type { TestDatabase } from "../../../../test/test-database.js";
import { fixturePart, upload } from "../../../../test/upload.js";
import { FIXTURES_DIR } from "../parsers/test-files.js";
import { nameOf } from "../../../db/results-sql.js";

/**
 * Cucumber JSON's embeddings (`embeddings: [{ data, mime_type }]`, base64) from a real
 * cucumber-js run: stored as attachments, and each screenshot shown on the step that took it.
 */

let database: TestDatabase;
let app: FastifyInstance;

useIngestApp((made) => ({ database, app } = made));

interface Embedded {
  scenario: string;
  step: string;
  mime: string;
  data: string;
}

/** Every embedding of the real cucumber-js report, with its scenario and step. */
function embeddings(): Embedded[] {
  const report = JSON.parse(
    readFileSync(`${FIXTURES_DIR}cucumber/cucumber-report.json`, "utf8"),
  ) as {
    elements: {
      name: string;
      steps: { name?: string; embeddings?: { data: string; mime_type: string }[] }[];
    }[];
  }[];
  return report[0]!.elements.flatMap((scenario) =>
    scenario.steps.flatMap((step) =>
      (step.embeddings ?? []).map((e) => ({
        scenario: scenario.name,
        step: step.name ?? "",
        mime: e.mime_type,
        data: e.data,
      })),
    ),
  );
}

interface Detail {
  json_steps: { action: string }[];
  screenshots: { screenshotpath: string; step_index: number | null; content_type: string }[];
}

it("stores a Cucumber JSON report's base64 screenshots and shows each on its step", async () => {
  const res = await upload(app, [fixturePart("cucumber", "cucumber-report.json")], {
    family: "frontend",
    run_key: "cuke-1",
  });
  expect(res.statusCode, res.body).toBe(201);
  const { results } = (await app.inject({ method: "GET", url: "/v1/test-runs/cuke-1" })).json<{
    results: { test_run_test_id: string; name: string }[];
  }>();
  const images = embeddings().filter((e) => e.mime.startsWith("image/"));
  expect(images).toHaveLength(4);
  // An outline's examples are named "(example 1)", "(example 2)": each shows its own screenshot.
  const of = (result: { name: string }, e: Embedded) =>
    result.name === e.scenario || result.name.startsWith(`${e.scenario} (example `);
  const shown: string[] = [];
  for (const result of results.filter((r) => images.some((e) => of(r, e)))) {
    const detail = (
      await app.inject({ method: "GET", url: `/v1/test-detail/cuke-1/${result.test_run_test_id}` })
    ).json<Detail>();
    expect(detail.screenshots).toHaveLength(1);
    const [shot] = detail.screenshots;
    expect(shot!.content_type).toBe("image/png");
    const step = detail.json_steps[shot!.step_index!]!.action;
    const image = await app.inject({ method: "GET", url: `/v1/objects/${shot!.screenshotpath}` });
    expect(image.statusCode).toBe(200);
    const data = image.rawPayload.toString("base64");
    const embedded = images.find((e) => e.data === data && step.includes(e.step));
    expect(embedded, `${result.name}: ${step}`).toBeDefined();
    expect(of(result, embedded!)).toBe(true);
    shown.push(embedded!.step);
  }
  expect(shown.sort()).toEqual(images.map((e) => e.step).sort());
  // The text embedding is kept too, as an attachment of its result (not a screenshot).
  const { rows } = await database.db.pool.query<{ name: string; content_type: string }>(
    `SELECT ${nameOf("r")} AS name, a.content_type FROM attachments a JOIN results r ON r.id = a.result_id WHERE a.content_type NOT LIKE 'image/%'`,
  );
  expect(rows).toEqual([{ name: "Pay by invoice", content_type: "text/plain" }]);
});

it("lists a text embedding among its result's attachments, readable as the text it was", async () => {
  const res = await upload(app, [fixturePart("cucumber", "cucumber-report.json")], {
    family: "frontend",
    run_key: "cuke-text",
  });
  expect(res.statusCode, res.body).toBe(201);
  const { results } = (await app.inject({ method: "GET", url: "/v1/test-runs/cuke-text" })).json<{
    results: { test_run_test_id: string; name: string }[];
  }>();
  const invoice = results.find((r) => r.name === "Pay by invoice")!;
  const detail = (
    await app.inject({
      method: "GET",
      url: `/v1/test-detail/cuke-text/${invoice.test_run_test_id}`,
    })
  ).json<
    Detail & {
      attachments: { path: string; contentType: string; size: number; stepIndex: number }[];
    }
  >();
  const [text] = embeddings().filter((e) => e.mime === "text/plain");
  const sent = Buffer.from(text!.data, "base64");
  expect(detail.attachments).toEqual([
    expect.objectContaining({ contentType: "text/plain", size: sent.length }),
  ]);
  expect(detail.json_steps[detail.attachments[0]!.stepIndex]!.action).toContain(text!.step);
  expect(detail.screenshots.map((s) => s.content_type)).not.toContain("text/plain");
  const body = await app.inject({
    method: "GET",
    url: `/v1/objects/${detail.attachments[0]!.path}`,
  });
  expect(body.headers["content-type"]).toMatch(/^text\/plain/);
  expect(body.body).toBe(sent.toString("utf8"));
});
