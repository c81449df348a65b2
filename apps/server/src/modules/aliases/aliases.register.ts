import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import type { Db } from "../../db/pool.js";
import type { Jobs } from "../../jobs/jobs.js";
import { renameSearchQueue, startRenameSearch } from "./aliases.jobs.js";
import { aliasesRoutes } from "./aliases.routes.js";

/** What aliases need of the app's dependencies (app.ts's AppDeps). */
export interface AliasesDeps {
  db: Db;
  jobs: Jobs;
  logger: FastifyBaseLogger;
  startWorkers?: boolean;
}

/**
 * The aliases module's wiring: its routes, and the search for suggested renames when this app
 * runs job handlers (its ingest part, recordRunAliases, is called from app.ts's onRunStored).
 */
export async function registerAliases(app: FastifyInstance, deps: AliasesDeps): Promise<void> {
  await app.register(aliasesRoutes(deps.db));
  // Sent inside uploads' transactions (queueRenameSearch): the queue must exist before them.
  await deps.jobs.declare(renameSearchQueue);
  if (deps.startWorkers !== false)
    await startRenameSearch(deps.jobs, { db: deps.db, log: deps.logger });
}
