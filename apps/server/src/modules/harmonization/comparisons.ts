import {
  DH_PROGRESS,
  type DataHarmonizationConfig,
  type DhEnvironment,
  type DhGlobalEnvironment,
  type DhReportKind,
  type DhRow,
} from "@assay/core";
import { reasonOf } from "./connectors/index.js";
import { fhirPlan, sfdcPlan } from "./document-comparisons.js";
import type { RunPlan } from "./run-plan.js";

// The plan's types live in run-plan.ts, which document-comparisons.ts shares without a loop.
export type { RowTask, RunPlan, Sources } from "./run-plan.js";

const difference = (a: number, b: number) => b - a;

/** Source table against destination table (sql) or NDJSON files under a prefix (noSql). */
function countPlan(env: DhEnvironment, kind: "sql" | "nosql"): RunPlan {
  const source = env.source ?? "";
  const destination = env.destination ?? "";
  const start = DH_PROGRESS[kind].start;
  return {
    kind,
    rows: async () => env.entities.map((e, id) => ({ id, entity: e.entity, status: start })),
    task: async (row, sources) => {
      const entity = env.entities[row.id];
      if (!entity) throw new Error(`no entity ${row.id}`);
      const [from, to] = await Promise.all([sources(source), sources(destination)]);
      if (kind === "sql") {
        // Both sides at once: an entity takes the slower count, not the sum of the two.
        const [sourceCount, destinationCount] = await Promise.all([
          from.count(entity.source),
          to.count(entity.destination),
        ]);
        const diff = difference(sourceCount, destinationCount);
        return {
          ...row,
          sourceCount,
          destinationCount,
          difference: diff,
          status: diff === 0 ? "Success" : "Unequal Counts",
        };
      }
      const sourceCount = await from.count(entity.source);
      const documents = await to.listDocuments(entity.destination);
      let destinationCount = 0;
      for (const document of documents) destinationCount += await to.countDocument(document.key);
      const latest = documents.reduce<Date | null>(
        (at, d) => (d.lastModified && (!at || d.lastModified > at) ? d.lastModified : at),
        null,
      );
      return {
        ...row,
        sourceCount,
        destinationCount,
        difference: difference(sourceCount, destinationCount),
        bucket: to.where,
        docPath: entity.destination,
        lastUpdated: latest?.toISOString() ?? null,
        status: "Done",
      };
    },
  };
}

/** `{schema}` in a global environment's schema name template replaced by the schema. */
export function schemaName(template: string, schema: string): string {
  return template.replaceAll("{schema}", schema);
}

/** One accordion entry per global environment: every table of the schema, MySQL vs Redshift. */
function globalPlan(
  environments: readonly DhGlobalEnvironment[],
  schema: string,
  tables: readonly string[],
): RunPlan {
  return {
    kind: "global",
    rows: async () => environments.map((env, id) => ({ id, entity: env.alias, status: "Pending" })),
    task: async (row, sources) => {
      const env = environments[row.id];
      if (!env) throw new Error(`no environment ${row.id}`);
      const [mysql, redshift] = await Promise.all([sources(env.mysql), sources(env.redshift)]);
      const attempt = async (side: "MySQL" | "Redshift", name: string, errors: string[]) => {
        try {
          return await (side === "MySQL" ? mysql : redshift).count(name);
        } catch (error) {
          errors.push(`${side}: ${reasonOf(error)}`);
          return null;
        }
      };
      const tableCounts: NonNullable<DhRow["tableCounts"]> = [];
      for (const table of tables) {
        const errors: string[] = [];
        const mySqlCount = await attempt(
          "MySQL",
          `${schemaName(env.mysqlSchema, schema)}.${table}`,
          errors,
        );
        const redshiftCount = await attempt(
          "Redshift",
          `${schemaName(env.redshiftSchema, schema)}.${table}`,
          errors,
        );
        tableCounts.push([table, { mySqlCount, redshiftCount, errors }]);
      }
      const failed = tableCounts.some(([, c]) => c.errors.length > 0);
      const unequal = tableCounts.some(([, c]) => c.mySqlCount !== c.redshiftCount);
      return {
        ...row,
        tableCounts,
        status: failed ? "Failed" : unequal ? "Unequal Counts" : "Success",
      };
    },
  };
}

export interface RunTarget {
  platform: "legacy" | "nextGen" | "sfdc" | "global";
  kind: DhReportKind;
  env: string;
  envType: string;
  schema: string;
}

/** The plan of a run, or a message saying why the configuration has nothing to compare. */
export function planRun(config: DataHarmonizationConfig, target: RunTarget): RunPlan | string {
  if (target.platform === "global") {
    const schema = target.schema as keyof DataHarmonizationConfig["global"]["schemas"];
    const tables = config.global.schemas[schema];
    const environments = config.global.environments.filter(
      (e) => e.active && e.envType === target.envType,
    );
    if (environments.length === 0)
      return `No active global ${target.envType} environment is configured.`;
    return globalPlan(environments, schema, tables);
  }
  const env = config.environments[target.platform].find((e) => e.value === target.env);
  if (!env) return `No ${target.platform} environment "${target.env}" is configured.`;
  if (target.kind === "fhir" && env.fhir) return fhirPlan(env.fhir);
  if (target.kind === "sfdc" && env.sfdc) return sfdcPlan(env.sfdc);
  if (target.kind === "sql" || target.kind === "nosql") return countPlan(env, target.kind);
  return `The environment "${target.env}" is not configured for a ${target.kind} comparison.`;
}
