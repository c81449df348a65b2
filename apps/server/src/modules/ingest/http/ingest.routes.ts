import { ErrorBodySchema, IngestResponseSchema, UploadFieldsSchema } from "@assay/core";
// Brings request.parts() and isMultipart() into the request type.
import type {} from "@fastify/multipart";
import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { AppError } from "../../../errors.js";
import { documentedBodyOnly } from "../../../http/documented-body.js";
import { checkRunScope } from "../../auth/access.js";
import { ingestUpload, type IngestDeps, type IngestOutcome } from "../ingest.service.js";
import { Spool } from "../worker/spool.js";
import { IdempotencyHeaders, idempotencyKeyOf } from "./idempotency.js";

export interface IngestRouteOptions extends IngestDeps {
  maxUploadBytes: number;
  /** Files in one upload (ASSAY_MAX_UPLOAD_FILES). */
  maxUploadFiles: number;
}

/** The text fields a multipart body may carry besides its files (app.ts's multipart limits). */
const MAX_FIELDS = 100;

/** An upload's key also answers 409 while its upload is under way. */
const UploadIdempotencyHeaders = z.object({
  "idempotency-key": IdempotencyHeaders.shape["idempotency-key"].describe(
    "Makes a retried upload return the first answer instead of storing it twice. A key " +
      "belongs to the token (or user) that sent it and is kept 24 hours; the same key with " +
      "other content answers 422, and while its upload is under way, 409.",
  ),
});

/** The multipart form as /docs shows it: the files, and the text fields. */
const UploadBodySchema = UploadFieldsSchema.extend({
  file: z
    .array(z.string().meta({ format: "binary" }))
    .describe(
      "Report files, and the screenshots and attachments they name (one part each; a folder's " +
        "files named by their relative paths)",
    ),
});

/** Fields arrive as text; the last value of a repeated field wins. */
function collectField(fields: Record<string, string>, name: string, value: unknown) {
  if (typeof value === "string") fields[name] = value;
}

/** POST /v1/ingest/reports: report files (multipart) plus the run's metadata. */
export const ingestRoutes =
  (options: IngestRouteOptions): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      "/v1/ingest/reports",
      {
        config: { access: "ingest" },
        schema: {
          tags: ["ingest"],
          summary: "Upload report files (multipart/form-data) into a new run or into run_key",
          description:
            "Parts: one or more files (JUnit XML, Cucumber JSON, Allure results or zip, CTRF, " +
            "Playwright JSON, Mocha JSON, Locust CSV + HTML, .NET TRX, NUnit 3/2 XML, xUnit.net " +
            "XML, TestNG testng-results.xml, go test -json, RSpec JSON, Dart/Flutter JSON, and the " +
            "screenshots and result files they refer to; see the format field for the command " +
            "that writes each), " +
            "and text fields: " +
            Object.keys(UploadFieldsSchema.shape).join(", ") +
            ". format=auto detects each file's format from its content.",
          consumes: ["multipart/form-data"],
          headers: UploadIdempotencyHeaders,
          body: UploadBodySchema,
          response: {
            200: IngestResponseSchema,
            201: IngestResponseSchema,
            400: ErrorBodySchema,
            401: ErrorBodySchema,
            409: ErrorBodySchema,
            413: ErrorBodySchema,
            422: ErrorBodySchema,
          },
        },
        // The body schema documents the form; the parts are read as they stream in, and the
        // fields checked by UploadFieldsSchema (receiveParts).
        validatorCompiler: documentedBodyOnly,
      },
      async (request, reply) => {
        if (!request.isMultipart()) {
          throw new AppError(
            415,
            "unsupported_media_type",
            "Send the reports as multipart/form-data.",
          );
        }
        const spool = await Spool.create();
        let outcome: IngestOutcome;
        try {
          const raw = await receiveParts(request, spool, options);
          const fields = UploadFieldsSchema.safeParse(raw);
          if (!fields.success) {
            const details = fields.error.issues.map((i) => ({
              field: i.path.join("."),
              message: i.message,
            }));
            const summary = details.map((d) => `${d.field}: ${d.message}`).join("; ");
            throw new AppError(
              400,
              "invalid_request",
              `Invalid upload fields: ${summary}`,
              details,
            );
          }
          checkRunScope(request.principal, fields.data.run_key);
          if (spool.all().length === 0) {
            throw new AppError(
              400,
              "no_report",
              "The upload has no files: attach at least one report file.",
            );
          }
          const key = request.headers["idempotency-key"];
          outcome = await ingestUpload(
            options,
            fields.data,
            spool,
            idempotencyKeyOf(key, request.principal),
          );
        } finally {
          await spool.dispose();
        }
        // Answered once the upload's memory and temporary files are released, so that a server
        // stopped right after the answer leaves no temporary folder behind.
        return reply.status(outcome.statusCode === 201 ? 201 : 200).send(outcome.body);
      },
    );
  };

/** Spools the files of the multipart body and returns its text fields. */
async function receiveParts(
  request: FastifyRequest,
  spool: Spool,
  options: IngestRouteOptions,
): Promise<Record<string, string>> {
  const raw: Record<string, string> = {};
  let total = 0;
  const limits = {
    fileSize: options.maxUploadBytes,
    files: options.maxUploadFiles,
    parts: options.maxUploadFiles + MAX_FIELDS,
  };
  try {
    for await (const part of request.parts({ limits })) {
      if (part.type === "field") {
        collectField(raw, part.fieldname, part.value);
        continue;
      }
      const file = await spool.add(part.filename || part.fieldname, part.file);
      if (part.file.truncated) throw tooLarge(options.maxUploadBytes);
      // @fastify/multipart keeps every part it parsed in `fields` until the request ends, each
      // with its spent stream and listeners: for a 15,000-file results folder, about 20 MB of
      // heap that nothing reads. The spool has the file now.
      delete part.fields[part.fieldname];
      total += file.size;
      if (total > options.maxUploadBytes) throw tooLarge(options.maxUploadBytes);
    }
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    if (code === "FST_FILES_LIMIT" || code === "FST_PARTS_LIMIT") {
      throw tooManyFiles(options.maxUploadFiles);
    }
    throw error;
  }
  return raw;
}

function tooManyFiles(limit: number) {
  return new AppError(
    413,
    "payload_too_large",
    `The upload has more than ${limit} files, the limit per upload (ASSAY_MAX_UPLOAD_FILES). ` +
      "Send the folder as one zip, or in several uploads into one run with the same run_key " +
      "(assay upload --run-key).",
  );
}

function tooLarge(limit: number) {
  return new AppError(
    413,
    "payload_too_large",
    `The upload is larger than the limit of ${Math.round(limit / 1024 / 1024)} MiB (ASSAY_MAX_UPLOAD_MB).`,
  );
}
