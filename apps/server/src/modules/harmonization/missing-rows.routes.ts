import {
  DhMissingRowsSchema,
  DhStoredMissingRowsSchema,
  ErrorBodySchema,
  type DhMissingRows,
} from "@assay/core";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { errors, tags } from "./dh-routes-shared.js";
import type { DhDeps } from "./harmonization.service.js";
import { findMissingRows, storedMissingRows } from "./missing-rows.js";

/**
 * Find missing rows for an entity of a sql run. POST searches (it reads the data stores while
 * the request waits, bounded in time and keys; a second request for the same row while one
 * runs gets the same answer instead of a second search) and keeps the result with the row; GET
 * answers the kept result, so reopening the dialog does not read the stores again.
 */
const params = z.object({
  id: z.coerce.number().int().positive(),
  rowId: z.coerce.number().int().min(0),
});
const PATH = "/v1/dh/runs/:id/rows/:rowId/missing-rows";

export const missingRowsRoutes =
  (deps: DhDeps): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      PATH,
      {
        schema: {
          tags,
          summary: "The last Find missing rows result of a row, with when it was computed",
          description:
            "data is null until Find missing rows ran for the row (POST the same path); a new run of the report starts without results.",
          params,
          response: { 200: DhStoredMissingRowsSchema, ...errors },
        },
      },
      async (request) => ({
        data: await storedMissingRows(deps, request.params.id, request.params.rowId),
      }),
    );

    const running = new Map<string, Promise<DhMissingRows>>();
    app.post(
      PATH,
      {
        config: { access: "user" },
        schema: {
          tags,
          summary: "Find missing rows: the keys a sql entity's destination lacks (or has extra)",
          description:
            "Compares checksums of key ranges on both tables and bisects only the ranges that differ; lists up to 1,000 keys and stops after 20 s with what it found. The result is kept with the row (GET the same path) until the next search.",
          params,
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
