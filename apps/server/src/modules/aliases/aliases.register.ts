import type { FastifyInstance } from "fastify";
import type { Db } from "../../db/pool.js";
import { aliasesRoutes } from "./aliases.routes.js";

/** The aliases module's wiring, one line in app.ts (its ingest part: recordRunAliases). */
export async function registerAliases(app: FastifyInstance, deps: { db: Db }): Promise<void> {
  await app.register(aliasesRoutes(deps.db));
}
