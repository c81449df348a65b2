import {
  ErrorBodySchema,
  RmsIdParamsSchema,
  RmsTestLinkBodySchema,
  RmsTestLinkListSchema,
  RmsTestLinkParamsSchema,
  RmsTestLinkSchema,
} from "@assay/core";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { Db } from "../../db/pool.js";
import { linkTest, testLinks, unlinkTest } from "./traceability-links.service.js";
import { principalLabel } from "./traceability.service.js";

const tags = ["traceability"];
const refusals = {
  400: ErrorBodySchema,
  401: ErrorBodySchema,
  403: ErrorBodySchema,
  404: ErrorBodySchema,
};

/** Links between tests and requirements edited on the matrix screen (signed in, audited). */
export const traceabilityLinkRoutes =
  (db: Db): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      "/v1/traceability/rms/:id/links",
      {
        config: { access: "user" },
        schema: {
          tags,
          summary: "Link a test to a requirement (who and when are recorded)",
          description:
            "The test then covers the requirement in the matrix, besides tests whose tags name it. 409 when the test is already linked on the screen.",
          params: RmsIdParamsSchema,
          body: RmsTestLinkBodySchema,
          response: { 201: RmsTestLinkSchema, ...refusals, 409: ErrorBodySchema },
        },
      },
      async (request, reply) => {
        const link = await linkTest(
          db,
          request.params.id,
          request.body.testId,
          principalLabel(request.principal),
        );
        return reply.code(201).send(link);
      },
    );

    app.delete(
      "/v1/traceability/rms/:id/links/:testId",
      {
        config: { access: "user" },
        schema: {
          tags,
          summary: "Remove a test's link to a requirement (kept as history, with who and when)",
          params: RmsTestLinkParamsSchema,
          response: { 200: RmsTestLinkSchema, ...refusals },
        },
      },
      async (request) =>
        unlinkTest(db, request.params.id, request.params.testId, principalLabel(request.principal)),
    );

    app.get(
      "/v1/traceability/rms/:id/links",
      {
        schema: {
          tags,
          summary: "Every test linked to a requirement on the screen, removed links included",
          params: RmsIdParamsSchema,
          response: { 200: RmsTestLinkListSchema, 400: ErrorBodySchema, 404: ErrorBodySchema },
        },
      },
      async (request) => testLinks(db, request.params.id),
    );
  };
