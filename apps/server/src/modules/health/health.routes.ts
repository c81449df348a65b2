import { HealthSchema, ReadinessSchema, ErrorBodySchema } from "@assay/core";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { migrationStatus } from "../../db/migrate.js";
import type { Db } from "../../db/pool.js";
import { AppError } from "../../errors.js";

/** Liveness and readiness, for load balancers and `npm start`'s own check. */
export const healthRoutes =
  (db: Db, started: () => boolean): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      "/healthz",
      {
        config: { access: "open" },
        schema: {
          tags: ["health"],
          summary: "The process is up",
          response: { 200: HealthSchema },
        },
      },
      async () => ({ status: "ok" as const }),
    );

    app.get(
      "/readyz",
      {
        config: { access: "open" },
        schema: {
          tags: ["health"],
          summary: "The database is reachable and fully migrated, and the start has finished",
          response: { 200: ReadinessSchema, 503: ErrorBodySchema },
        },
      },
      async (request) => {
        let status: Awaited<ReturnType<typeof migrationStatus>>;
        try {
          status = await migrationStatus(db.pool);
        } catch (error) {
          request.log.warn({ err: error }, "readiness check: database unreachable");
          throw new AppError(503, "database_unavailable", "The database cannot be reached.");
        }
        if (!status.complete) {
          throw new AppError(
            503,
            "database_not_migrated",
            "The database is not fully migrated yet.",
          );
        }
        // Listening comes before the start's last step (the first admin, server.ts): a client
        // that signs in as soon as this says ready must find that account.
        if (!started()) {
          throw new AppError(503, "starting", "Assay is still starting. Try again in a moment.");
        }
        return { status: "ready" as const, database: { migrations: status.applied } };
      },
    );
  };
