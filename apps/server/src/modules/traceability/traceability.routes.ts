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
import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { Db } from "../../db/pool.js";
import { traceabilityLinkRoutes } from "./traceability-links.routes.js";
import { acceptedEncoding, COMPRESS_THRESHOLD_BYTES } from "../../http/compression.js";
import { ifNoneMatchHits } from "../../http/etag.js";
import { sendOkAsBuilt } from "../runs/sent-as-built.js";
import { MatrixCache, type MatrixAnswer } from "./traceability.cache.js";
import { matrixCsv } from "./traceability.export.js";
import {
  currentMatrix,
  importRequirements,
  refreshWatchedMatrix,
  principalLabel,
  rmsEdits,
  testHistory,
  updateRms,
} from "./traceability.service.js";

const tags = ["traceability"];

/** The kept answer: 304 when the client has this version, else its JSON, compressed if asked. */
async function sendMatrix(
  request: FastifyRequest,
  reply: FastifyReply,
  answer: MatrixAnswer,
  cache: MatrixCache,
) {
  void reply.header("cache-control", "no-cache").header("vary", "accept-encoding");
  if (answer.etag) {
    void reply.header("etag", answer.etag);
    if (ifNoneMatchHits(request.headers["if-none-match"], answer.etag))
      return reply.code(304).send(null);
  }
  // Already JSON: Fastify sends a string payload with a JSON type as it is.
  void reply.type("application/json; charset=utf-8");
  const encoding = acceptedEncoding(request.headers["accept-encoding"]);
  if (!encoding || answer.body.length < COMPRESS_THRESHOLD_BYTES) return reply.send(answer.body);
  // Compressed once per kept answer; the compression plugin leaves encoded answers be.
  return reply.header("content-encoding", encoding).send(await cache.encoded(answer, encoding));
}
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

    const cache = new MatrixCache();
    // While someone looks at the matrix, uploads are noticed within 10 s and the answer is
    // rebuilt ahead of their next request (traceability.cache.ts).
    let refreshing = false;
    const refresher = setInterval(() => {
      if (refreshing) return;
      refreshing = true;
      refreshWatchedMatrix(db, rmsTagPattern, cache)
        .catch((error: unknown) => app.log.warn({ err: error }, "matrix refresh failed"))
        .finally(() => {
          refreshing = false;
        });
    }, 10_000);
    refresher.unref();
    app.addHook("onClose", async () => clearInterval(refresher));
    app.get(
      "/v1/traceability-matrix",
      {
        schema: {
          tags,
          summary: "Every requirement with the tests covering it, their latest status and bugs",
          description:
            "Answers carry an ETag: a request with If-None-Match gets 304 while the requirements, " +
            "the results and the tags are unchanged. The answer is kept between changes.",
          response: {
            200: TraceabilityMatrixSchema,
            304: z.null().describe("Unchanged since the ETag sent in If-None-Match: no body"),
          },
        },
        // The kept JSON is sent as it is (sent-as-built.ts); the service builds it typed.
        serializerCompiler: sendOkAsBuilt,
      },
      async (request, reply) =>
        sendMatrix(request, reply, await currentMatrix(db, rmsTagPattern, cache), cache),
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
        const csv = matrixCsv((await currentMatrix(db, rmsTagPattern, cache)).matrix, now);
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
          summary: "Replace the requirements with those of a CSV or JSON file (or preview it)",
          description:
            "Known requirements keep their note and flag; those not in the file are archived, not deleted: their note, flag, links and edit history come back when a later import or sync names them again. dry_run: true changes nothing and answers the same preview (added, changed, archived, restored). A file with any bad row changes nothing (400).",
          body: RmsImportBodySchema,
          response: { 200: RmsImportResultSchema, ...refusals, 413: ErrorBodySchema },
        },
      },
      async (request) => importRequirements(db, request.body, principalLabel(request.principal)),
    );
  };
