import {
  ErrorBodySchema,
  RetentionStatusSchema,
  RolledUpTestSchema,
  TestIdParamsSchema,
} from "@assay/core";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { RetentionPolicy } from "../../config-retention.js";
import type { Db } from "../../db/pool.js";
import { rolledUpTestCounts } from "./rollups.repo.js";
import { retentionStatus } from "./retention.service.js";

/** GET /v1/retention: the policy (from assay.config.yaml) and the latest pass. */
export const retentionRoutes =
  (db: Db, policy: RetentionPolicy | undefined): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      "/v1/retention",
      {
        // Periods and counts only (no names, no secrets): readable as the lists are.
        config: { access: "read" },
        schema: {
          tags: ["retention"],
          summary: "The retention policy and the latest retention pass",
          description:
            "The policy is read from assay.config.yaml (`retention:`); null means nothing is ever removed. Passes run nightly (schedule) or by `assay retention --yes`.",
          response: { 200: RetentionStatusSchema, 401: ErrorBodySchema, 403: ErrorBodySchema },
        },
      },
      async () => retentionStatus(db, policy),
    );
    app.get(
      "/v1/retention/tests/:id",
      {
        config: { access: "read" },
        schema: {
          tags: ["retention"],
          summary: "A test's results removed by retention, from the daily counts kept",
          description:
            "Test History adds these to its pass rate: the results themselves are gone, their counts per day are kept.",
          params: TestIdParamsSchema,
          response: { 200: RolledUpTestSchema, 400: ErrorBodySchema },
        },
      },
      async (request) => rolledUpTestCounts(db, request.params.id),
    );
  };
