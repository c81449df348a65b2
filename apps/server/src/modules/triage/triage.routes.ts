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
  ResultCauseListSchema,
  ResultCausesQuerySchema,
  RunGroupParamsSchema,
  TestsDefectBodySchema,
  TriageRunParamsSchema,
} from "@assay/core";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { KEEP_ANSWER, KEEP_ANSWER_A_MINUTE } from "../../http/answer-cache.js";
import { checkRunScope } from "../auth/access.js";
import { resultCauses, setTestsDefect } from "./causes.service.js";
import type { TriageDeps } from "./pending.service.js";
import { principalLabel } from "../traceability/traceability.service.js";
import { failureGroup, failureGroups, gate, runFailureGroups } from "./triage.service.js";
import { setGroupDefect, setResultDefect, setRunGroupDefect } from "./defects.service.js";

const tags = ["triage"];
// A defect type is a person's decision: a signed-in user; service tokens read only.
const user = { access: "user" } as const;
// The gate is CI's: a service token of the ingest scope, a build's own token (its run), or a user.
const ci = { access: "ingest" } as const;
const readErrors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 404: ErrorBodySchema };
const writeErrors = { ...readErrors, 403: ErrorBodySchema };

/** Triage (issue 34): failure groups, defect decisions and the quality gate. */
export const triageRoutes =
  (deps: TriageDeps): FastifyPluginAsyncZod =>
  async (app) => {
    const { db } = deps;
    app.get(
      "/v1/runs/:key/failure-groups",
      {
        // Kept while the database is unchanged: every dialog of the run asks for it.
        config: KEEP_ANSWER,
        schema: {
          tags,
          summary: "A run's failures grouped by cause (fingerprint), most results first",
          params: TriageRunParamsSchema,
          response: { 200: RunFailureGroupListSchema, ...readErrors },
        },
      },
      async (request) => runFailureGroups(deps, request.params.key),
    );

    app.get(
      "/v1/runs/:key/failure-causes",
      {
        config: KEEP_ANSWER,
        schema: {
          tags,
          summary: "The failure group and defect type of some of a run's results (a page of cards)",
          params: TriageRunParamsSchema,
          querystring: ResultCausesQuerySchema,
          response: { 200: ResultCauseListSchema, ...readErrors },
        },
      },
      async (request) => resultCauses(deps, request.params.key, request.query.ids),
    );

    app.put(
      "/v1/runs/:key/defect",
      {
        config: user,
        schema: {
          tags,
          summary: "Set the defect type of a run's failures of some tests (the Failed Summary)",
          params: TriageRunParamsSchema,
          body: TestsDefectBodySchema,
          response: { 200: DefectAnswerSchema, ...writeErrors },
        },
      },
      async (request) =>
        setTestsDefect(deps, request.params.key, request.body, principalLabel(request.principal)),
    );

    app.get(
      "/v1/failure-groups",
      {
        // Counted from now (the period, the trend's days): kept a minute at most.
        config: KEEP_ANSWER_A_MINUTE,
        schema: {
          tags,
          summary: "Failure groups seen over a period (7 days by default), most occurrences first",
          querystring: FailureGroupsQuerySchema,
          response: { 200: FailureGroupListSchema, ...readErrors },
        },
      },
      async (request) => failureGroups(deps, request.query),
    );

    app.get(
      "/v1/failure-groups/:id",
      {
        config: KEEP_ANSWER_A_MINUTE,
        schema: {
          tags,
          summary: "One failure group: its tests, runs, first occurrence, message and stack",
          params: GroupIdParamsSchema,
          response: { 200: FailureGroupDetailSchema, ...readErrors },
        },
      },
      async (request) => failureGroup(deps, request.params.id),
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
        setResultDefect(deps, request.params.id, request.body, principalLabel(request.principal)),
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
          deps,
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
        config: ci,
        schema: {
          tags,
          summary:
            "Quality gate: passed unless a limit given is exceeded (new, to investigate, failed)",
          params: TriageRunParamsSchema,
          querystring: GateQuerySchema,
          response: { 200: GateAnswerSchema, ...writeErrors },
        },
      },
      async (request) => {
        checkRunScope(request.principal, request.params.key);
        return gate(deps, request.params.key, request.query);
      },
    );
  };
