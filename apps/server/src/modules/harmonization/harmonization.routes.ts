import {
  DhEnvironmentOptionSchema,
  DhEnvTypeSchema,
  DhGlobalSchemaNameSchema,
  DhPlatformSchema,
  DhRowSchema,
  DhRunChangesSchema,
  DhRunSchema,
  DhRunSummarySchema,
  DhTypeSchema,
  ErrorBodySchema,
  StartDhRunBodySchema,
} from "@assay/core";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { dhDocumentRoutes } from "./dh-documents.routes.js";
import { data, EnvParams, errors, latestRows, tags } from "./dh-routes-shared.js";
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

const RunIdParams = z.object({ id: z.coerce.number().int().positive() });

/**
 * Data harmonization (spec sections 2-8): the data pipeline service's calls served by Assay under
 * /v1/dh, read from the stored comparison runs, and the runs themselves (Run Report starts one).
 */
export const harmonizationRoutes =
  (deps: DhDeps): FastifyPluginAsyncZod =>
  async (app) => {
    const { db } = deps;
    await app.register(missingRowsRoutes(deps));
    await app.register(dhDocumentRoutes(deps));
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
        return { data: await latestRows(db, platform, type, env) };
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
