import type { FastifyInstance, FastifyRequest } from "fastify";
import { AppError } from "../errors.js";

/** C0 controls and DEL: no address, parameter or name means anything with them. */
export function hasControl(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

function refused(where: string): AppError {
  return new AppError(
    400,
    "control_character",
    `${where} contains a control character (such as NUL or a line break), which no value here may hold; remove it and send again.`,
  );
}

function decoded(part: string): string | undefined {
  try {
    return decodeURIComponent(part.replace(/\+/g, " "));
  } catch {
    // Malformed escapes are the router's and the query parser's to refuse.
    return undefined;
  }
}

/** Refuses a path or query that holds a control character once its escapes are decoded. */
function checkUrl(request: FastifyRequest): void {
  const [path = "", query = ""] = request.url.split(/\?(.*)/s, 2);
  if (hasControl(decoded(path) ?? "")) throw refused("The address's path");
  for (const pair of query.split("&")) {
    const [name = "", value = ""] = pair.split(/=(.*)/s, 2);
    const decodedName = decoded(name) ?? "";
    if (hasControl(decodedName)) throw refused("A query parameter's name");
    if (hasControl(decoded(value) ?? "")) throw refused(`The query parameter "${decodedName}"`);
  }
}

/**
 * Refuses a NUL anywhere in a parsed body, its names included. Line breaks and tabs are text
 * there (messages, stack traces); NUL is never text and PostgreSQL cannot store it. A body read
 * as a stream (multipart uploads) or as bytes (Buffer) is not parsed here and passes untouched;
 * the fields that carry values to a runner refuse other controls in their own schemas.
 */
function checkBody(body: unknown): void {
  const pending: unknown[] = [body];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value === "string") {
      if (value.includes("\u0000")) throw refused("The request's body");
    } else if (Array.isArray(value)) {
      pending.push(...value);
    } else if (value !== null && typeof value === "object" && !Buffer.isBuffer(value)) {
      for (const [name, inner] of Object.entries(value)) {
        if (name.includes("\u0000")) throw refused("The request's body");
        pending.push(inner);
      }
    }
  }
}

/**
 * One place for every route: a NUL (or another control character in a path or query) is a 400
 * in words, before any route, query or database sees it (issue 33: NUL reached PostgreSQL as a
 * 500). Pages and unknown addresses are checked too.
 */
export function registerControlCharacterCheck(app: FastifyInstance): void {
  app.addHook("onRequest", async (request) => checkUrl(request));
  app.addHook("preValidation", async (request) => checkBody(request.body));
}
