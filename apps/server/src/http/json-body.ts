import type { FastifyInstance } from "fastify";

/**
 * JSON bodies as Fastify reads them (secure-json-parse, prototype poisoning refused), except that
 * an empty body is no body: clients send Content-Type: application/json on every call, DELETE
 * included, and an empty body there means "nothing", not a malformed document. A route that
 * needs a body still refuses its absence through its schema, in words.
 */
export function acceptEmptyJsonBody(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser("error", "error");
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (request, body, done) => {
    const text = typeof body === "string" ? body : body.toString("utf8");
    if (text.trim() === "") {
      done(null, undefined);
      return;
    }
    parseJson(request, text, done);
  });
}
