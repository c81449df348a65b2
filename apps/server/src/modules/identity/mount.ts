import type { IncomingMessage } from "node:http";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { LoadedProvider } from "./provider.js";
import { OIDC_PATH } from "./provider.js";

/**
 * Hands /oidc/* to oidc-provider (a koa app) inside Fastify, as the library's "Mounting" docs
 * describe for a framework without koa middleware: the raw request and response go to
 * provider.callback(), with the body left unread for the provider's own parser.
 */

type RawRequest = IncomingMessage & { originalUrl?: string };

/**
 * Makes the provider see ASSAY_PUBLIC_URL as the request's origin. It builds its endpoint URLs
 * from the request, and a Host or X-Forwarded-Host header sent by a client must not change the
 * URLs it publishes (H8 of the security plan). The address is Fastify's, for its logs.
 */
export function asPublicRequest(request: FastifyRequest, publicUrl: URL): RawRequest {
  const raw = request.raw as RawRequest;
  raw.headers["x-forwarded-host"] = publicUrl.host;
  raw.headers["x-forwarded-proto"] = publicUrl.protocol.slice(0, -1);
  raw.headers["x-forwarded-for"] = request.ip;
  return raw;
}

/** The provider's answer to this request, as if it had been sent to `path` under /oidc. */
async function forward(
  request: FastifyRequest,
  reply: FastifyReply,
  load: () => Promise<LoadedProvider>,
  publicUrl: URL,
  path: string,
): Promise<void> {
  // Before hijacking: a provider that cannot load is an ordinary 500 from Fastify.
  const { handle } = await load();
  reply.hijack();
  const raw = asPublicRequest(request, publicUrl);
  const url = raw.url ?? "/";
  const query = url.includes("?") ? url.slice(url.indexOf("?")) : "";
  // The provider finds its mount path by comparing originalUrl with url.
  raw.originalUrl = `${OIDC_PATH}${path}${query}`;
  raw.url = `${path}${query}`;
  try {
    await handle(raw, reply.raw);
  } catch (error) {
    request.log.error({ err: error }, "identity provider failed");
    if (!reply.raw.headersSent) reply.raw.writeHead(500, { "content-type": "text/plain" });
    reply.raw.end();
  } finally {
    raw.url = url;
  }
}

/** Registers the provider's routes; call inside their own plugin (it replaces body parsers). */
export function mountProvider(
  app: FastifyInstance,
  load: () => Promise<LoadedProvider>,
  publicUrl: URL,
): void {
  // Fastify must not read /oidc bodies: the provider parses them (and warns when it cannot).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("*", (_request, _payload, done) => done(null, undefined));

  app.route({
    method: ["GET", "POST", "OPTIONS"],
    url: `${OIDC_PATH}/*`,
    config: { access: "open" },
    schema: { hide: true },
    handler: (request, reply) => {
      const path = (request.raw.url ?? "/").split("?")[0]?.slice(OIDC_PATH.length) || "/";
      return forward(request, reply, load, publicUrl, path);
    },
  });

  // RFC 8414 places an issuer's metadata here when the issuer has a path (…/oidc).
  app.get(
    `/.well-known/oauth-authorization-server${OIDC_PATH}`,
    { config: { access: "open" }, schema: { hide: true } },
    (request, reply) =>
      forward(request, reply, load, publicUrl, "/.well-known/openid-configuration"),
  );
}
