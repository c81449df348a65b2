import { ErrorBodySchema } from "@assay/core";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { notFound } from "../../errors.js";
import { ifNoneMatchHits } from "../../http/etag.js";
import { validateKey, type ObjectStore } from "../../storage/index.js";

const PREFIX = "/v1/objects/";

/** Shown in the page: raster images, plain text and JSON. Anything else is only downloaded. */
const INLINE_TYPES = new Set([
  "image/png",
  "image/jpeg",
  "image/gif",
  "image/webp",
  "image/avif",
  "image/bmp",
  "text/plain",
  "application/json",
]);

/**
 * An HTML report (a load run's Locust report) opens in the browser with its scripts, so its
 * charts draw, but in a sandbox without allow-same-origin: the page gets an opaque origin, so
 * its scripts cannot read Assay's cookies, storage or API answers, submit forms, open windows or
 * navigate the tab; connect-src 'none' keeps it from calling out.
 */
export const HTML_REPORT_POLICY = [
  "sandbox allow-scripts",
  "default-src 'none'",
  "script-src 'unsafe-inline' https:",
  "style-src 'unsafe-inline' https:",
  "img-src data: blob: https:",
  "font-src data: https:",
  "connect-src 'none'",
  "frame-ancestors 'self'",
].join("; ");

/** Everything else: no script at all, even in its own tab (an SVG, say). */
const OBJECT_POLICY =
  "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'self'; sandbox";

const ObjectParamsSchema = z.object({
  "*": z
    .string()
    .describe(
      "The object's key, as given by the API (for example attachments/2026/11/<uuid>.png): " +
        "letters, digits and / _ . - only",
    ),
});

/**
 * The key as the client sent it, before the router decoded it: `a%2Fb` must be refused, not
 * read as `a/b`, and `%2e%2e` must be seen as the traversal it is.
 */
function rawKey(url: string, decoded: string): string {
  const pathname = url.split("?")[0] ?? "";
  return pathname.startsWith(PREFIX) ? pathname.slice(PREFIX.length) : decoded;
}

/**
 * Stored objects (screenshots, attachments, HTML reports) by key. Keys are made by the server and
 * never reused, so answers are cached for good. Objects come from uploaded reports, so they are
 * served so that none can run script in Assay's origin: no sniffing, a sandbox policy (HTML in
 * an opaque-origin sandbox), and anything but raster images, plain text, JSON and HTML as a
 * download.
 */
export const objectsRoutes =
  (objects: ObjectStore): FastifyPluginAsyncZod =>
  async (app) => {
    app.route({
      method: ["GET", "HEAD"],
      url: `${PREFIX}*`,
      schema: {
        tags: ["objects"],
        summary: "Download a stored object, such as a screenshot",
        params: ObjectParamsSchema,
        response: {
          200: z.unknown().describe("The object's bytes, with its stored Content-Type"),
          304: z.undefined().describe("Not modified: the If-None-Match ETag is current"),
          400: ErrorBodySchema,
          404: ErrorBodySchema,
          503: ErrorBodySchema,
        },
      },
      handler: async (request, reply) => {
        const key = validateKey(rawKey(request.url, request.params["*"]));
        const object = await objects.get(key);
        if (!object) throw notFound(`No object with key ${key}.`);

        const type = object.contentType.split(";")[0]?.trim().toLowerCase() ?? "";
        const fileName = key.slice(key.lastIndexOf("/") + 1);
        reply
          .header("etag", object.etag)
          .header("last-modified", object.lastModified.toUTCString())
          .header("cache-control", "private, max-age=31536000, immutable")
          .header("x-content-type-options", "nosniff")
          .header(
            "content-security-policy",
            type === "text/html" ? HTML_REPORT_POLICY : OBJECT_POLICY,
          );
        if (type === "text/html") {
          reply.header("content-disposition", `inline; filename="${fileName}"`);
        } else if (!INLINE_TYPES.has(type)) {
          // The key's last segment is server-made (uuid.ext), so it needs no escaping.
          reply.header("content-disposition", `attachment; filename="${fileName}"`);
        }

        if (ifNoneMatchHits(request.headers["if-none-match"], object.etag)) {
          object.body.destroy();
          return reply.code(304).send();
        }
        reply.header("content-type", object.contentType).header("content-length", object.size);
        if (request.method === "HEAD") {
          // Fastify's own HEAD handling would read the whole object just to discard it.
          object.body.destroy();
          return reply.code(200).send();
        }
        return reply.code(200).send(object.body);
      },
    });
  };
