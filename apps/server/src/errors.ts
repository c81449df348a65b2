import type { FastifyError, FastifyInstance } from "fastify";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import { isDatabaseDown, isDatabaseFull } from "./database-down.js";

/**
 * An error meant for the client: a status, a stable snake_case code and a message for a person.
 * A `cause` (a data store's own error) is logged with the request id, never sent: its text can
 * name internal hosts, tables or users.
 */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "AppError";
  }
}

/** A 502 for a data store or service that failed: a sentence for the reader, the cause logged. */
export const upstreamFailed = (code: string, message: string, cause: unknown) =>
  new AppError(502, code, message, undefined, { cause });

export const notFound = (message: string) => new AppError(404, "not_found", message);
export const badRequest = (message: string, details?: unknown) =>
  new AppError(400, "bad_request", message, details);

/** Codes for the 4xx errors Fastify raises itself, so clients see stable names. */
const FASTIFY_CODES: Record<string, string> = {
  FST_ERR_CTP_BODY_TOO_LARGE: "payload_too_large",
  FST_ERR_CTP_INVALID_MEDIA_TYPE: "unsupported_media_type",
  FST_ERR_CTP_EMPTY_JSON_BODY: "bad_request",
  FST_ERR_CTP_INVALID_JSON_BODY: "invalid_json",
  FST_REQ_FILE_TOO_LARGE: "payload_too_large",
  FST_PARTS_LIMIT: "payload_too_large",
  FST_FILES_LIMIT: "payload_too_large",
  FST_FIELDS_LIMIT: "payload_too_large",
  FST_INVALID_MULTIPART_CONTENT_TYPE: "unsupported_media_type",
};

const COUNT = new Intl.NumberFormat("en-US");

/** A field's name from its path in words: /webhookUrl → "webhook URL", /note → "note". */
export function fieldWords(path: string): string {
  const last =
    path
      .split("/")
      .filter((part) => part !== "" && !/^\d+$/.test(part))
      .pop() ?? "";
  const words = last
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/_/g, " ")
    .toLowerCase()
    .replace(/\burl\b/g, "URL");
  return words === "" ? "text" : words;
}

interface ValidationIssue {
  keyword: string;
  instancePath: string;
  message?: string | undefined;
  params?: Record<string, unknown>;
}

/**
 * A text's length refusal as a sentence in the field's words: zod's "Too big: expected string
 * to have <=4000 characters" becomes "The note can be at most 4,000 characters."; a too-short
 * text only when the schema wrote no message of its own ("Name is required" stays). Null for
 * any other issue.
 */
export function lengthSentence(issue: ValidationIssue): string | null {
  const params = issue.params ?? {};
  if (params.origin !== "string") return null;
  const field = fieldWords(issue.instancePath);
  if (issue.keyword === "too_big" && typeof params.maximum === "number") {
    return `The ${field} can be at most ${COUNT.format(params.maximum)} characters.`;
  }
  if (!/^Too small/.test(issue.message ?? "")) return null;
  if (issue.keyword === "too_small" && typeof params.minimum === "number") {
    return params.minimum <= 1
      ? `The ${field} cannot be empty.`
      : `The ${field} needs at least ${COUNT.format(params.minimum)} characters.`;
  }
  return null;
}

/**
 * The one error handler: AppError and validation errors become their 4xx body; anything else is
 * a bug, logged with the request id and answered with a body that carries no internals.
 */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      if (error.statusCode === 401) reply.header("www-authenticate", 'Bearer realm="assay"');
      if (error.cause === undefined)
        return reply.status(error.statusCode).send({
          error: { code: error.code, message: error.message, details: error.details },
        });
      request.log.error({ err: error.cause, code: error.code }, error.message);
      return reply.status(error.statusCode).send({
        error: {
          code: error.code,
          message: `${error.message} The server log has the details under request id ${request.id}.`,
        },
      });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const details = error.validation.map((issue) => ({
        path: issue.instancePath,
        message: lengthSentence(issue) ?? issue.message,
      }));
      const where = error.validationContext ?? "request";
      const sentences = error.validation.map(lengthSentence);
      // A text over (or under) its limit is said in the field's words; anything else names where.
      const message = sentences.every((sentence) => sentence !== null)
        ? sentences.join(" ")
        : `Invalid ${where}: ${details.map((d) => `${d.path || "/"}: ${d.message}`).join("; ")}`;
      return reply.status(400).send({ error: { code: "invalid_request", message, details } });
    }
    const status = error.statusCode ?? 500;
    if (status < 500) {
      const code = FASTIFY_CODES[error.code] ?? "bad_request";
      return reply.status(status).send({ error: { code, message: error.message } });
    }
    if (isDatabaseDown(error)) {
      request.log.warn({ err: error }, "database unavailable");
      return reply
        .status(503)
        .header("retry-after", "5")
        .send({
          error: {
            code: "database_unavailable",
            message: "The database cannot be reached; try again in a few seconds.",
          },
        });
    }
    if (isDatabaseFull(error)) {
      request.log.error({ err: error }, "database disk full");
      return reply.status(507).send({
        error: {
          code: "database_full",
          message:
            "The database is out of disk space; nothing of this request was stored. Free space on its disk and try again.",
        },
      });
    }
    request.log.error({ err: error }, "request failed");
    return reply.status(500).send({
      error: {
        code: "internal_error",
        message: `Something went wrong on the server. Quote request id ${request.id} when reporting it.`,
      },
    });
  });
}
