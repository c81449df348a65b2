import type { FastifyInstance } from "fastify";
import helmet from "@fastify/helmet";
import multipart from "@fastify/multipart";
import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import { jsonSchemaTransform } from "fastify-type-provider-zod";
import type { Db } from "../db/pool.js";
import { registerAnswerCache } from "./answer-cache.js";
import { registerCompression } from "./compression.js";
import { registerHsts } from "./hsts.js";

/**
 * Swagger UI's own policy for /docs, with two changes: no upgrade-insecure-requests (it breaks a
 * plain-http local install), and inline styles allowed, as on the web app's pages (Swagger UI's
 * bundle sets inline styles, which the browser refused with a console error on every visit).
 * Scripts stay 'self' only.
 */
const docsPolicy = (csp: string) =>
  csp
    .replace(/\s*upgrade-insecure-requests;?/, "")
    .replace(
      /style-src ([^;]*);/,
      (_all, sources: string) => `style-src ${sources.trim()} 'unsafe-inline';`,
    );

/**
 * The HTTP plugins every route sits behind: security headers, compression, kept answers, the
 * OpenAPI document and /docs, multipart bodies. Registered before any module's routes.
 */
export async function registerHttpPlugins(
  app: FastifyInstance,
  options: { db: Db; publicUrl: string },
): Promise<void> {
  // While stopping, answers close their connection, so a keep-alive client cannot hold the
  // shutdown open after its last request finished.
  let stopping = false;
  app.addHook("preClose", async () => {
    stopping = true;
  });
  app.addHook("onSend", async (_request, reply) => {
    if (stopping) reply.header("connection", "close");
  });

  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // MUI (emotion) injects style elements at run time.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", "data:", "blob:"],
        connectSrc: ["'self'"],
        fontSrc: ["'self'", "data:"],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
    referrerPolicy: { policy: "no-referrer" },
    // Sent by registerHsts, over HTTPS only.
    strictTransportSecurity: false,
  });
  registerHsts(app, options.publicUrl);

  // Before every route, so that each answer over the threshold can be compressed.
  await registerCompression(app);
  // After the compression: the read answers kept are the bytes sent (http/answer-cache.ts).
  registerAnswerCache(app, options.db);

  await app.register(swagger, {
    openapi: {
      info: {
        title: "Assay API",
        description: "Test results in and out: runs, results, history, builds and more.",
        version: "1",
      },
    },
    transform: jsonSchemaTransform,
  });
  // Upload limits are per route (ingest: ASSAY_MAX_UPLOAD_MB and ASSAY_MAX_UPLOAD_FILES); these
  // bound everything else a multipart body carries.
  await app.register(multipart, {
    limits: { fieldNameSize: 100, fieldSize: 64 * 1024, fields: 100, files: 10_000, parts: 20_000 },
    preservePath: true,
  });
  await app.register(swaggerUi, {
    routePrefix: "/docs",
    staticCSP: true,
    transformStaticCSP: docsPolicy,
  });
}
