import { DhMissingRowsSchema, type DhMissingRows } from "@assay/core";
import { AppError, badRequest, notFound, upstreamFailed } from "../../errors.js";
import { ConnectorError } from "./connectors/connector.js";
import { openConnector, type Connector } from "./connectors/index.js";
import type { ConnectorContext } from "./connectors/index.js";
import {
  findMissingRowsResult,
  findRun,
  listRows,
  saveMissingRowsResult,
} from "./harmonization.repo.js";
import type { DhDeps } from "./harmonization.service.js";
import { diffKeys, KEY_DIFF_LIMITS, type KeyDiffLimits } from "./key-diff.js";

/**
 * Find missing rows for one entity of a sql run: its source and destination tables' keys are
 * compared by checksum bisection (key-diff.ts). The tables and the key column come from the
 * configuration of the run's environment; the request only names the run and the row. The
 * result is kept with the row (storedMissingRows answers it until the next search).
 *
 * Answers name tables, the environment and its configured source names, never a database's host
 * or port; a data store's own error text is logged, and the reader gets a sentence (errors.ts).
 */
export async function findMissingRows(
  deps: DhDeps,
  runId: number,
  rowId: number,
  limits: KeyDiffLimits = KEY_DIFF_LIMITS,
): Promise<DhMissingRows> {
  const run = await findRun(deps.db, runId);
  if (!run) throw notFound(`No data harmonization run ${runId}.`);
  if (run.kind !== "sql")
    throw badRequest(
      "Find missing rows compares two SQL tables: choose a row of a Legacy sql report.",
    );
  const row = (await listRows(deps.db, runId)).find((r) => r.id === rowId);
  if (!row) throw notFound(`Run ${runId} has no row ${rowId}.`);
  const config = deps.settings?.config;
  const env = config?.environments[run.platform as "legacy"]?.find((e) => e.value === run.env);
  const entity = env?.entities.find((e) => e.entity === row.entity);
  if (!config || !deps.context || !env?.source || !env.destination || !entity)
    throw badRequest(
      `The entity ${row.entity} is no longer configured in ${run.env}: run the report again.`,
    );
  if (!entity.key)
    throw badRequest(
      `The entity ${row.entity} has no key column: add key: (an integer column both tables share) to its mapping in assay.config.yaml.`,
    );
  const opened: Connector[] = [];
  let result: Omit<DhMissingRows, "computedAt">;
  try {
    const open = async (name: string) => {
      const source = config.sources[name];
      if (!source) throw badRequest(`No source named ${name} in the configuration.`);
      const connector = await openConnector(source, deps.context as ConnectorContext);
      opened.push(connector);
      if (!connector.keyRanges)
        throw badRequest(
          `The source ${name} (${source.kind}) is not a SQL database: Find missing rows compares SQL tables.`,
        );
      return { ranges: connector.keyRanges };
    };
    const from = await open(env.source);
    const to = await open(env.destination);
    const diff = await diffKeys(
      { ranges: from.ranges, table: entity.source },
      { ranges: to.ranges, table: entity.destination },
      entity.key,
      limits,
    );
    result = {
      runId,
      rowId,
      entity: row.entity,
      key: entity.key,
      source: `${entity.source} (${env.alias}, source ${env.source})`,
      destination: `${entity.destination} (${env.alias}, destination ${env.destination})`,
      limit: limits.maxKeys,
      ...diff,
    };
  } catch (error) {
    if (error instanceof AppError) throw error;
    // Assay's own words (a key it cannot order, a setting missing) say what to change.
    if (error instanceof ConnectorError) throw badRequest(`Find missing rows: ${error.message}`);
    // A data store that fails is not the caller's fault; its text may name hosts or users.
    throw upstreamFailed(
      "source_failed",
      `Find missing rows could not read ${row.entity} in ${env.alias}: a data store refused or failed the query.`,
      error,
    );
  } finally {
    await Promise.allSettled(opened.map((c) => c.close()));
  }
  const computedAt = await saveMissingRowsResult(deps.db, runId, rowId, result);
  return { ...result, computedAt: computedAt.toISOString() };
}

/** The row's last Find missing rows result, null until one is computed; 404 for no such row. */
export async function storedMissingRows(
  deps: Pick<DhDeps, "db">,
  runId: number,
  rowId: number,
): Promise<DhMissingRows | null> {
  if (!(await findRun(deps.db, runId))) throw notFound(`No data harmonization run ${runId}.`);
  const stored = await findMissingRowsResult(deps.db, runId, rowId);
  if (stored === undefined) throw notFound(`Run ${runId} has no row ${rowId}.`);
  if (!stored) return null;
  // A result kept in a shape this version no longer reads is as good as none: search again.
  const parsed = DhMissingRowsSchema.safeParse({
    ...stored.result,
    computedAt: stored.computedAt.toISOString(),
  });
  return parsed.success ? parsed.data : null;
}
