import type { FastifyInstance } from "fastify";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp } from "../../test/build-test-app.js";
import { createTestDatabase, type TestDatabase } from "../../test/test-database.js";
import { storedCounts, TEST_INGEST_TOKEN, upload } from "../../test/upload.js";
import { asFiles, CAMPAIGNS, mutatedFiles } from "./fixture-seeds.js";
import { campaignTimeout, fuzz, fuzzRuns } from "./fuzz-settings.js";
import { applyAll, mutations } from "./mutations.js";
import { parseOutcome } from "./parse-outcome.js";

/*
 * A tenth of the mutation cases end to end through POST /v1/ingest/reports on the real app and
 * PostgreSQL: never a 5xx; a refused upload stores nothing; an accepted one stores one run with
 * exactly the results the parsers yield for the same bytes.
 */

let database: TestDatabase;
let app: FastifyInstance;

beforeAll(async () => {
  database = await createTestDatabase();
  ({ app } = await buildTestApp(database.db, { env: { ASSAY_INGEST_TOKEN: TEST_INGEST_TOKEN } }));
});
afterAll(async () => {
  await app.close();
  await database.drop();
});

const runs = Math.max(10, Math.round(fuzzRuns() / 10));

describe(`mutated fixtures through the upload route (${runs} cases per format)`, () => {
  for (const [name, seeds] of Object.entries(CAMPAIGNS)) {
    it(
      `${name}: 201 with the parsed counts, or a 4xx that stores nothing`,
      async () => {
        await fuzz(
          `${name} (upload route)`,
          fc.asyncProperty(fc.constantFrom(...seeds), mutations, async (seed, steps) => {
            const files = mutatedFiles(seed, (bytes) => applyAll(bytes, steps));
            const parsed = await parseOutcome(asFiles(files), seed.format).catch(() => undefined);
            const before = await storedCounts(database.db.pool);
            const fields: Record<string, string> =
              seed.format === "auto" ? {} : { format: seed.format };
            const parts = files.map((f) => ({ name: f.name, content: f.bytes }));
            const res = await upload(app, parts, fields);
            const after = await storedCounts(database.db.pool);
            expect(res.statusCode, res.body).toBeLessThan(500);
            if (res.statusCode >= 400) {
              expect(res.json().error.code).toMatch(/^[a-z_]+$/);
              expect(after).toEqual(before);
              return;
            }
            expect(res.statusCode).toBe(201);
            expect(after.runs).toBe(before.runs! + 1);
            if (parsed?.kind === "parsed" && seed.format !== "locust") {
              const { passed, failed, skipped } = parsed.counts;
              expect(after.results! - before.results!).toBe(passed + failed + skipped);
            }
          }),
          runs,
        );
      },
      campaignTimeout(runs * 3),
    );
  }
});
