import {
  DefectAnswerSchema,
  DefectBodySchema,
  ErrorBodySchema,
  FailureGroupDetailSchema,
  FailureGroupListSchema,
  FailureGroupsQuerySchema,
  GateAnswerSchema,
  GateQuerySchema,
  GroupIdParamsSchema,
  ResultIdParamsSchema,
  RunFailureGroupListSchema,
  RunGroupParamsSchema,
  TriageRunParamsSchema,
} from "@assay/core";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { Db } from "../../db/pool.js";
import { principalLabel } from "../traceability/traceability.service.js";
import {
  failureGroup,
  failureGroups,
  gate,
  runFailureGroups,
  setGroupDefect,
  setResultDefect,
  setRunGroupDefect,
} from "./triage.service.js";

const tags = ["triage"];
// A defect type is a person's decision: a signed-in user; service tokens read (and gate) only.
const user = { access: "user" } as const;
const readErrors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 404: ErrorBodySchema };
const writeErrors = { ...readErrors, 403: ErrorBodySchema };

/** Triage (issue 34): failure groups, defect decisions and the quality gate. */
export const triageRoutes =
  (db: Db): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      "/v1/runs/:key/failure-groups",
      {
        schema: {
          tags,
          summary: "A run's failures grouped by cause (fingerprint), most results first",
          params: TriageRunParamsSchema,
          response: { 200: RunFailureGroupListSchema, ...readErrors },
        },
      },
      async (request) => runFailureGroups(db, request.params.key),
    );

    app.get(
      "/v1/failure-groups",
      {
        schema: {
          tags,
          summary: "Failure groups seen over a period (7 days by default), most occurrences first",
          querystring: FailureGroupsQuerySchema,
          response: { 200: FailureGroupListSchema, ...readErrors },
        },
      },
      async (request) => failureGroups(db, request.query),
    );

    app.get(
      "/v1/failure-groups/:id",
      {
        schema: {
          tags,
          summary: "One failure group: its tests, runs, first occurrence, message and stack",
          params: GroupIdParamsSchema,
          response: { 200: FailureGroupDetailSchema, ...readErrors },
        },
      },
      async (request) => failureGroup(db, request.params.id),
    );

    app.put(
      "/v1/results/:id/defect",
      {
        config: user,
        schema: {
          tags,
          summary: "Set a failed result's defect type, comment and bug keys (history kept)",
          params: ResultIdParamsSchema,
          body: DefectBodySchema,
          response: { 200: DefectAnswerSchema, ...writeErrors },
        },
      },
      async (request) =>
        setResultDefect(db, request.params.id, request.body, principalLabel(request.principal)),
    );

    app.put(
      "/v1/runs/:key/failure-groups/:id/defect",
      {
        config: user,
        schema: {
          tags,
          summary: "Set the defect type of every result of a failure group in a run",
          params: RunGroupParamsSchema,
          body: DefectBodySchema,
          response: { 200: DefectAnswerSchema, ...writeErrors },
        },
      },
      async (request) =>
        setRunGroupDefect(
          db,
          request.params.key,
          request.params.id,
          request.body,
          principalLabel(request.principal),
        ),
    );

    app.put(
      "/v1/failure-groups/:id/defect",
      {
        config: user,
        schema: {
          tags,
          summary: "Set the defect type of a failure group's results of the last 90 days",
          params: GroupIdParamsSchema,
          body: DefectBodySchema,
          response: { 200: DefectAnswerSchema, ...writeErrors },
        },
      },
      async (request) =>
        setGroupDefect(db, request.params.id, request.body, principalLabel(request.principal)),
    );

    app.get(
      "/v1/runs/:key/gate",
      {
        schema: {
          tags,
          summary:
            "Quality gate: passed unless a limit given is exceeded (new, to investigate, failed)",
          params: TriageRunParamsSchema,
          querystring: GateQuerySchema,
          response: { 200: GateAnswerSchema, ...readErrors },
        },
      },
      async (request) => gate(db, request.params.key, request.query),
    );
  };
