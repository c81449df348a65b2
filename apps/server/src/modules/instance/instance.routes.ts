import { InstanceSchema } from "@assay/core";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { Db } from "../../db/pool.js";
import { getInstance } from "./instance.service.js";

/** GET /v1/instance: facts about this installation, such as whether its data is demo data. */
export const instanceRoutes =
  (db: Db): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      "/v1/instance",
      {
        schema: {
          tags: ["instance"],
          summary: "Whether this installation shows demo data",
          response: { 200: InstanceSchema },
        },
      },
      async () => getInstance(db),
    );
  };
