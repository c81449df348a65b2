import {
  DhDocumentDataSchema,
  DhFileRecordSchema,
  DhPlatformSchema,
  DhRowSchema,
  DhTypeSchema,
} from "@assay/core";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { notFound } from "../../errors.js";
import {
  data,
  EnvParams,
  EnvWithTypeParams,
  errors,
  latestRows,
  nonGlobal,
  tags,
} from "./dh-routes-shared.js";
import type { DhDeps } from "./harmonization.service.js";

/**
 * The spec's nosql calls (section 7): an environment's documents, FHIR entities and files, and
 * SFDC document data, each read from the environment's latest stored run.
 */
export const dhDocumentRoutes =
  (deps: DhDeps): FastifyPluginAsyncZod =>
  async (app) => {
    const { db } = deps;
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
          const rows = await latestRows(db, platform, type, env);
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
        const rows = await latestRows(db, platform, "noSql", env);
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
        const rows = await latestRows(db, platform, "noSql", env);
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
        const rows = await latestRows(db, platform, "noSql", env);
        const row = rows.find((r) => r.docPath === request.body.bucket.docPath);
        if (!row?.data)
          throw notFound(`No compared document ${request.body.bucket.docPath} in ${env}.`);
        return { data: row.data };
      },
    );
  };
