import type { FastifyInstance } from "fastify";

/** helmet's default policy: a year, subdomains included. */
const POLICY = "max-age=31536000; includeSubDomains";

/**
 * Strict-Transport-Security only on answers that travel over HTTPS (RFC 6797 section 7.2: a
 * host must not send it over plain HTTP): the request came over TLS, or Assay's public address
 * is https (a TLS proxy in front of it). Sent over http://localhost, it would pin a browser to an
 * https that is not there for a year.
 */
export function registerHsts(app: FastifyInstance, publicUrl: string): void {
  const publicHttps = new URL(publicUrl).protocol === "https:";
  app.addHook("onSend", async (request, reply) => {
    if (publicHttps || request.protocol === "https")
      reply.header("strict-transport-security", POLICY);
  });
}
