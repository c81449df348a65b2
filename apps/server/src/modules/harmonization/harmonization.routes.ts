import {
  DhEnvironmentOptionSchema,
  DhEnvTypeSchema,
  DhFileRecordSchema,
  DhGlobalSchemaNameSchema,
  DhPlatformSchema,
  DhRowSchema,
  DhRunChangesSchema,
  DhRunSchema,
  DhRunSummarySchema,
  DhTypeSchema,
  DhDocumentDataSchema,
  ErrorBodySchema,
  StartDhRunBodySchema,
} from "@assay/core";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { badRequest, notFound } from "../../errors.js";
import { runCsv } from "./harmonization.csv.js";
import { missingRowsRoutes } from "./missing-rows.routes.js";
import {
  environmentOptions,
  getRun,
  globalEnvironmentOptions,
  latestRun,
  recentRuns,
  runChanges,
  runKey,
  startRun,
  type DhDeps,
} from "./harmonization.service.js";

const tags = ["data harmonization"];
const errors = { 400: ErrorBodySchema, 404: ErrorBodySchema };
const data = <T extends z.ZodType>(schema: T) => z.object({ data: schema });
const RunIdParams = z.object({ id: z.coerce.number().int().positive() });
const EnvParams = z.object({ platform: DhPlatformSchema, env: z.string().min(1).max(100) });
const EnvWithTypeParams = EnvParams.extend({ envType: DhEnvTypeSchema });
const nonGlobal = (platform: string) => {
  if (platform === "global") throw badRequest("Global data is read with queryGlobalData.");
  return platform as "legacy" | "nextGen" | "sfdc";
};

/**
 * Data harmonization (spec sections 2-8): the data pipeline service's calls served by Assay under
 * /v1/dh, read from the stored comparison runs, and the runs themselves (Run Report starts one).
 */
export const harmonizationRoutes =
  (deps: DhDeps): FastifyPluginAsyncZod =>
  async (app) => {
    const { db } = deps;
    await app.register(missingRowsRoutes(deps));
    app.get(
      "/v1/dh/:platform/:type/:envType/environments",
      {
        schema: {
          tags,
          summary: "Environments of a platform, type and environment type",
          params: z.object({
            platform: DhPlatformSchema.exclude(["global"]),
            type: DhTypeSchema,
            envType: DhEnvTypeSchema,
          }),
          response: { 200: data(z.array(DhEnvironmentOptionSchema)), ...errors },
        },
      },
      async (request) => {
        const { platform, type, envType } = request.params;
        return { data: environmentOptions(deps, platform, type, envType) };
      },
    );

    app.get(
      "/v1/dh/getGlobalSchemaEnvironments/:platform/:schema",
      {
        schema: {
          tags,
          summary: "The global environments a schema is compared across",
          params: z.object({ platform: z.literal("global"), schema: DhGlobalSchemaNameSchema }),
          response: { 200: data(z.array(DhEnvironmentOptionSchema)), ...errors },
        },
      },
      async () => ({ data: globalEnvironmentOptions(deps) }),
    );

    app.post(
      "/v1/dh/runs",
      {
        config: { access: "user" },
        schema: {
          tags,
          summary: "Run Report: start a comparison run (or join the one running)",
          description:
            "202 with the new run; 200 with the run already queued or running for this environment.",
          body: StartDhRunBodySchema,
          response: {
            200: DhRunSummarySchema,
            202: DhRunSummarySchema,
            401: ErrorBodySchema,
            403: ErrorBodySchema,
            409: ErrorBodySchema,
            ...errors,
          },
        },
      },
      async (request, reply) => {
        const principal = request.principal;
        const who = principal?.kind === "user" ? principal.email : null;
        const { run, created } = await startRun(deps, request.body, who ?? "unknown");
        return reply.status(created ? 202 : 200).send(run);
      },
    );

    app.get(
      "/v1/dh/runs",
      {
        schema: {
          tags,
          summary: "Recent runs of an environment (Global: envType and schema), newest first",
          querystring: z.object({
            platform: DhPlatformSchema,
            type: DhTypeSchema.default("sql"),
            envType: DhEnvTypeSchema.default("dev"),
            env: z.string().max(100).default(""),
            schema: DhGlobalSchemaNameSchema.optional(),
          }),
          response: { 200: data(z.array(DhRunSummarySchema)), ...errors },
        },
      },
      async (request) => ({ data: await recentRuns(db, runKey(request.query)) }),
    );

    app.get(
      "/v1/dh/runs/:id",
      {
        schema: {
          tags,
          summary: "A run with its rows and totals (poll while state is queued or running)",
          params: RunIdParams,
          response: { 200: DhRunSchema, ...errors },
        },
      },
      async (request) => getRun(db, request.params.id),
    );

    app.get(
      "/v1/dh/runs/:id/changes",
      {
        schema: {
          tags,
          summary: "Entities whose status or difference changed since the previous run",
          params: RunIdParams,
          response: { 200: DhRunChangesSchema, ...errors },
        },
      },
      async (request) => runChanges(db, request.params.id),
    );

    app.get(
      "/v1/dh/runs/:id/csv",
      {
        schema: {
          tags,
          summary: "A run's rows as CSV",
          params: RunIdParams,
          response: { 200: z.string(), ...errors },
        },
      },
      async (request, reply) => {
        const run = await getRun(db, request.params.id);
        return reply
          .header("content-type", "text/csv; charset=utf-8")
          .header("content-disposition", `attachment; filename="dh-run-${run.id}.csv"`)
          .send(runCsv(run));
      },
    );

    const rowsOf = async (platform: string, type: "sql" | "noSql", env: string) =>
      (await latestRun(db, runKey({ platform: nonGlobal(platform), type, env, envType: "dev" })))
        .rows;

    app.get(
      "/v1/dh/report/:platform/:type/:env",
      {
        schema: {
          tags,
          summary: "The latest sql report of an environment",
          params: EnvParams.extend({ type: DhTypeSchema }),
          response: { 200: data(z.array(DhRowSchema)), ...errors },
        },
      },
      async (request) => {
        const { platform, type, env } = request.params;
        return { data: await rowsOf(platform, type, env) };
      },
    );

    for (const url of [
      "/v1/dh/nosql/getDocuments/:platform/:type/:env",
      "/v1/dh/nosql/getBucketDocuments/:platform/:env",
      "/v1/dh/nosql/getSFDCDocuments/:platform/:env",
    ]) {
      app.get(
        url,
        {
          schema: {
            tags,
            summary: "The documents (or entities) of an environment's latest noSql report",
            params: EnvParams.extend({ type: DhTypeSchema.default("noSql") }),
            response: { 200: data(z.array(DhRowSchema.omit({ data: true }))), ...errors },
          },
        },
        async (request) => {
          const { platform, type, env } = request.params;
          const rows = await rowsOf(platform, type, env);
          return { data: rows.map(({ data: _detail, ...row }) => row) };
        },
      );
    }

    app.get(
      "/v1/dh/nosql/getFHIREnvironmentTables/:platform",
      {
        schema: {
          tags,
          summary: "The FHIR entities configured for a platform",
          params: z.object({ platform: DhPlatformSchema }),
          response: { 200: data(z.array(z.string())), ...errors },
        },
      },
      async (request) => {
        const platform = nonGlobal(request.params.platform);
        const envs = deps.settings?.config.environments[platform] ?? [];
        const names = envs.flatMap((e) => e.fhir?.entities.map((x) => x.entity) ?? []);
        return { data: [...new Set(names)] };
      },
    );

    app.post(
      "/v1/dh/nosql/getFHIRDocumentPaths/:platform/:env/:envType",
      {
        config: { access: "read" },
        schema: {
          tags,
          summary: "An entity's per-file rows (More Details) from the latest FHIR report",
          params: EnvWithTypeParams,
          body: z.object({ table: z.string().min(1).max(200) }),
          response: { 200: data(z.array(DhFileRecordSchema)), ...errors },
        },
      },
      async (request) => {
        const { platform, env } = request.params;
        const rows = await rowsOf(platform, "noSql", env);
        const row = rows.find((r) => r.entity === request.body.table);
        if (!row) throw notFound(`No entity ${request.body.table} in the latest report of ${env}.`);
        return { data: row.files ?? [] };
      },
    );

    app.post(
      "/v1/dh/nosql/getFHIRBucketData/:platform/:env/:envType",
      {
        config: { access: "read" },
        schema: {
          tags,
          summary: "An entity's FHIR, FHIR-lite, DocumentDB and Redshift counts (latest report)",
          description:
            "fhirBuckets is the NextGen entity as the screen holds it (its entity name is enough); the answer is that entity's row with its status and counts, without the per-file rows of getFHIRDocumentPaths.",
          params: EnvWithTypeParams,
          body: z.object({
            fhirBuckets: z.object({ entity: z.string().min(1).max(200) }).loose(),
          }),
          response: { 200: data(DhRowSchema.omit({ files: true, data: true })), ...errors },
        },
      },
      async (request) => {
        const { platform, env } = request.params;
        const { entity } = request.body.fhirBuckets;
        const rows = await rowsOf(platform, "noSql", env);
        const row = rows.find((r) => r.entity === entity);
        if (!row) throw notFound(`No FHIR entity ${entity} in the latest report of ${env}.`);
        // The per-file rows are getFHIRDocumentPaths' answer; this one carries the counts.
        return { data: { ...row, files: undefined, data: undefined } };
      },
    );

    app.post(
      "/v1/dh/nosql/getSFDCDocumentData/:platform/:env/:envType",
      {
        config: { access: "read" },
        schema: {
          tags,
          summary: "A document's S3 records, MySQL records and discrepancies",
          params: EnvWithTypeParams,
          body: z.object({ bucket: z.object({ docPath: z.string().min(1).max(1024) }).loose() }),
          response: { 200: data(DhDocumentDataSchema), ...errors },
        },
      },
      async (request) => {
        const { platform, env } = request.params;
        const rows = await rowsOf(platform, "noSql", env);
        const row = rows.find((r) => r.docPath === request.body.bucket.docPath);
        if (!row?.data)
          throw notFound(`No compared document ${request.body.bucket.docPath} in ${env}.`);
        return { data: row.data };
      },
    );

    app.get(
      "/v1/dh/queryGlobalData/:platform/:schema",
      {
        schema: {
          tags,
          summary: "The latest global report of a schema: per environment, per-table counts",
          params: z.object({ platform: z.literal("global"), schema: DhGlobalSchemaNameSchema }),
          querystring: z.object({ envType: DhEnvTypeSchema.default("dev") }),
          response: { 200: data(z.array(DhRowSchema)), ...errors },
        },
      },
      async (request) => {
        const key = runKey({
          platform: "global",
          type: "sql",
          env: "",
          envType: request.query.envType,
          schema: request.params.schema,
        });
        return { data: (await latestRun(db, key)).rows };
      },
    );
  };
