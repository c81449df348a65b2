import {
  AppendResultsResponseSchema,
  AttachmentCreatedSchema,
  ErrorBodySchema,
  FinishRunResponseSchema,
  LiveRunSchema,
  OpenRunBodySchema,
  ResultInputSchema,
  RunKeySchema,
} from "@assay/core";
import type {} from "@fastify/multipart";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { AppError } from "../../../errors.js";
import { checkRunScope } from "../../auth/access.js";
import { documentedBodyOnly } from "../../../http/documented-body.js";
import type { IngestRouteOptions } from "./ingest.routes.js";
import { IdempotencyHeaders, idempotencyKeyOf } from "./idempotency.js";
import { attachToResult } from "../live-attachments.service.js";
import {
  appendResults,
  finishLiveRun,
  batchOf,
  MAX_BATCH_RESULTS,
  openLiveRun,
  parseJsonBody,
} from "../live.service.js";

const KeyParams = z.object({ key: RunKeySchema });
const errors = {
  400: ErrorBodySchema,
  401: ErrorBodySchema,
  404: ErrorBodySchema,
  409: ErrorBodySchema,
};
const NDJSON = "application/x-ndjson";
/** A batch of results can be large, up to the upload limit (ASSAY_MAX_UPLOAD_MB) or this. */
const MAX_BATCH_BYTES = 64 * 1024 * 1024;

/**
 * The live API: a reporter opens a run, appends batches of results while tests run (readable at
 * once), attaches files to a result and step, and finishes the run.
 */
export const liveRoutes =
  (options: IngestRouteOptions): FastifyPluginAsyncZod =>
  async (app) => {
    // A build's token writes into its own run only (the path's key, or the body's run_key).
    app.addHook("preHandler", async (request) => {
      const key =
        (request.params as { key?: string } | undefined)?.key ??
        (request.body as { run_key?: string } | undefined)?.run_key;
      checkRunScope(request.principal, key);
    });
    const batchLimit = Math.min(MAX_BATCH_BYTES, options.maxUploadBytes);
    app.addContentTypeParser(
      NDJSON,
      { parseAs: "string", bodyLimit: batchLimit },
      (_req, body, done) => done(null, body),
    );
    // This plugin's JSON bodies are read as uploaded JSON files are (parseJsonBody).
    app.removeContentTypeParser("application/json");
    app.addContentTypeParser(
      "application/json",
      { parseAs: "string", bodyLimit: batchLimit },
      (_req, body, done) => {
        try {
          done(null, parseJsonBody(body as string));
        } catch (error) {
          done(error as Error, undefined);
        }
      },
    );

    app.post(
      "/v1/ingest/runs",
      {
        config: { access: "ingest" },
        schema: {
          tags: ["ingest"],
          summary: "Open a run for live results",
          body: OpenRunBodySchema,
          response: { 201: LiveRunSchema, ...errors },
        },
      },
      async (request, reply) => {
        const { run_key, ...meta } = request.body;
        return reply.status(201).send(await openLiveRun(options, meta, run_key));
      },
    );

    app.post(
      "/v1/ingest/runs/:key/results",
      {
        config: { access: "ingest" },
        bodyLimit: batchLimit,
        schema: {
          tags: ["ingest"],
          summary:
            "Append results: a JSON array of results, or NDJSON (application/x-ndjson, one per line)",
          params: KeyParams,
          consumes: ["application/json", NDJSON],
          body: z.union([z.array(ResultInputSchema).max(MAX_BATCH_RESULTS), z.string()]),
          response: { 200: AppendResultsResponseSchema, ...errors },
        },
        // The schema documents the body; batchOf checks it, naming the result and field at fault
        // (a union's failure says only "Invalid input").
        validatorCompiler: documentedBodyOnly,
      },
      async (request) => {
        const ndjson = request.headers["content-type"]?.toLowerCase().startsWith(NDJSON) ?? false;
        return appendResults(options, request.params.key, batchOf(request.body, ndjson));
      },
    );

    app.post(
      "/v1/ingest/runs/:key/results/:test_run_test_id/attachments",
      {
        config: { access: "ingest" },
        schema: {
          tags: ["ingest"],
          summary:
            "Attach a file (multipart: file, and optional fields description, step_index, timestamp)",
          consumes: ["multipart/form-data"],
          params: KeyParams.extend({ test_run_test_id: z.string().min(1).max(200) }),
          headers: IdempotencyHeaders,
          response: {
            201: AttachmentCreatedSchema,
            ...errors,
            413: ErrorBodySchema,
            422: ErrorBodySchema,
          },
        },
      },
      async (request, reply) => {
        if (!request.isMultipart())
          throw new AppError(
            415,
            "unsupported_media_type",
            "Send the file as multipart/form-data.",
          );
        const part = await request.file({ limits: { fileSize: options.maxUploadBytes } });
        if (!part) throw new AppError(400, "no_file", "The request has no file part.");
        // Fails the file as it passes the limit: the store drops what it had written, and no
        // attachment row is made (busboy would otherwise end the file short, as if complete).
        // A small body may have been read past the limit already.
        const tooLarge = () =>
          new AppError(
            413,
            "payload_too_large",
            `The file is larger than the upload limit of ${options.maxUploadBytes / 1024 / 1024} MB (ASSAY_MAX_UPLOAD_MB).`,
          );
        if (part.file.truncated) {
          part.file.resume();
          throw tooLarge();
        }
        part.file.once("limit", () => part.file.destroy(tooLarge()));
        const fields = AttachmentFieldsSchema.safeParse(
          Object.fromEntries(
            Object.entries(part.fields).flatMap(([name, field]) =>
              field && !Array.isArray(field) && field.type === "field"
                ? [[name, String(field.value)]]
                : [],
            ),
          ),
        );
        if (!fields.success) {
          part.file.resume();
          throw new AppError(
            400,
            "invalid_request",
            `Invalid attachment fields: ${fields.error.issues[0]!.message}`,
          );
        }
        const created = await attachToResult(
          options,
          request.params.key,
          request.params.test_run_test_id,
          { body: part.file, contentType: part.mimetype, name: part.filename || "attachment" },
          fields.data,
          idempotencyKeyOf(request.headers["idempotency-key"], request.principal),
        );
        return reply.status(201).send(created);
      },
    );

    app.post(
      "/v1/ingest/runs/:key/finish",
      {
        config: { access: "ingest" },
        schema: {
          tags: ["ingest"],
          summary: "Finish a live run",
          params: KeyParams,
          response: { 200: FinishRunResponseSchema, ...errors },
        },
      },
      async (request) => finishLiveRun(options, request.params.key),
    );
  };

const AttachmentFieldsSchema = z.object({
  description: z.string().max(2000).optional(),
  step_index: z.coerce.number().int().nonnegative().optional(),
  timestamp: z.iso.datetime({ offset: true }).optional(),
});
