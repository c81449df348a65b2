import { DhMissingRowsSchema, ErrorBodySchema, type DhMissingRows } from "@assay/core";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { DhDeps } from "./harmonization.service.js";
import { findMissingRows } from "./missing-rows.js";

/**
 * POST /v1/dh/runs/:id/rows/:rowId/missing-rows: Find missing rows for an entity of a sql run.
 * It reads the data stores while the request waits (bounded in time and keys); a second request
 * for the same row while one runs gets the same answer instead of a second search.
 */
export const missingRowsRoutes =
  (deps: DhDeps): FastifyPluginAsyncZod =>
  async (app) => {
    const running = new Map<string, Promise<DhMissingRows>>();
    app.post(
      "/v1/dh/runs/:id/rows/:rowId/missing-rows",
      {
        config: { access: "user" },
        schema: {
          tags: ["data harmonization"],
          summary: "Find missing rows: the keys a sql entity's destination lacks (or has extra)",
          description:
            "Compares checksums of key ranges on both tables and bisects only the ranges that differ; lists up to 1,000 keys and stops after 20 s with what it found.",
          params: z.object({
            id: z.coerce.number().int().positive(),
            rowId: z.coerce.number().int().min(0),
          }),
          response: {
            200: DhMissingRowsSchema,
            400: ErrorBodySchema,
            401: ErrorBodySchema,
            403: ErrorBodySchema,
            404: ErrorBodySchema,
            502: ErrorBodySchema,
          },
        },
      },
      async (request) => {
        const { id, rowId } = request.params;
        const at = `${id}:${rowId}`;
        let search = running.get(at);
        if (!search) {
          search = findMissingRows(deps, id, rowId).finally(() => running.delete(at));
          running.set(at, search);
        }
        return search;
      },
    );
  };
