import {
  ErrorBodySchema,
  RMS_IMPORT_MAX_CHARS,
  RmsDetailSchema,
  RmsEditListSchema,
  RmsIdParamsSchema,
  RmsImportBodySchema,
  RmsImportResultSchema,
  RmsUpdateBodySchema,
  TestHistoryQuerySchema,
  TestHistorySchema,
  TraceabilityMatrixSchema,
} from "@assay/core";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { Db } from "../../db/pool.js";
import { traceabilityLinkRoutes } from "./traceability-links.routes.js";
import { matrixCsv } from "./traceability.export.js";
import {
  importRequirements,
  principalLabel,
  rmsEdits,
  testHistory,
  traceabilityMatrix,
  updateRms,
} from "./traceability.service.js";

const tags = ["traceability"];
const refusals = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema };

export interface TraceabilityRoutesOptions {
  db: Db;
  /** catalog.rmsTagPattern: a test tag naming the requirement it covers. */
  rmsTagPattern: string;
}

/** The Traceability Matrix (spec sections 2, 3 and 7) and the requirements import. */
export const traceabilityRoutes =
  ({ db, rmsTagPattern }: TraceabilityRoutesOptions): FastifyPluginAsyncZod =>
  async (app) => {
    await app.register(traceabilityLinkRoutes(db));

    app.get(
      "/v1/traceability-matrix",
      {
        schema: {
          tags,
          summary: "Every requirement with the tests covering it, their latest status and bugs",
          response: { 200: TraceabilityMatrixSchema },
        },
      },
      async () => traceabilityMatrix(db, rmsTagPattern),
    );

    app.get(
      "/v1/traceability-matrix/export.csv",
      {
        schema: {
          tags,
          summary: "The whole matrix as CSV, with its source and the export time on each line",
          produces: ["text/csv"],
        },
      },
      async (_request, reply) => {
        const now = new Date();
        const csv = matrixCsv(await traceabilityMatrix(db, rmsTagPattern), now);
        const stamp = now.toISOString().slice(0, 19).replace(/[:T]/g, "-");
        return reply
          .header("content-type", "text/csv; charset=utf-8")
          .header("content-disposition", `attachment; filename="traceability-matrix-${stamp}.csv"`)
          .send(csv);
      },
    );

    app.get(
      "/v1/traceability/test-history",
      {
        schema: {
          tags,
          summary: "A test's results, newest first (the last 200)",
          querystring: TestHistoryQuerySchema,
          response: { 200: TestHistorySchema, 400: ErrorBodySchema },
        },
      },
      async (request) => testHistory(db, request.query.testId),
    );

    app.put(
      "/v1/traceability/rms/:id",
      {
        config: { access: "user" },
        schema: {
          tags,
          summary: "Set a requirement's note and no-automation flag (the edit is recorded)",
          params: RmsIdParamsSchema,
          body: RmsUpdateBodySchema,
          response: { 200: RmsDetailSchema, ...refusals, 404: ErrorBodySchema },
        },
      },
      async (request) =>
        updateRms(db, request.params.id, request.body, principalLabel(request.principal)),
    );

    app.get(
      "/v1/traceability/rms/:id/history",
      {
        schema: {
          tags,
          summary: "Every edit of a requirement's note and flag, with the values before it",
          params: RmsIdParamsSchema,
          response: { 200: RmsEditListSchema, 400: ErrorBodySchema },
        },
      },
      async (request) => rmsEdits(db, request.params.id),
    );

    app.post(
      "/v1/traceability/rms/import",
      {
        // A CI job imports with a service token (`assay rms import`), as it uploads reports.
        config: { access: "ingest" },
        // JSON escaping can grow a file's text; the content's own limit is checked by the schema.
        bodyLimit: RMS_IMPORT_MAX_CHARS * 2,
        schema: {
          tags,
          summary: "Replace the requirements with those of a CSV or JSON file",
          description:
            "Known requirements keep their note and flag; those not in the file are removed. A file with any bad row changes nothing (400).",
          body: RmsImportBodySchema,
          response: { 200: RmsImportResultSchema, ...refusals, 413: ErrorBodySchema },
        },
      },
      async (request) => importRequirements(db, request.body, principalLabel(request.principal)),
    );
  };
