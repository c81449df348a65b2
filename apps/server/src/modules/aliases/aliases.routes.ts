import {
  AliasIdParamsSchema,
  AliasListQuerySchema,
  AliasListSchema,
  AliasSchema,
  AliasSuggestionListSchema,
  AliasSuggestionSchema,
  CreateAliasBodySchema,
  ErrorBodySchema,
  SuggestionIdParamsSchema,
} from "@assay/core";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { Db } from "../../db/pool.js";
import { principalLabel } from "../auth/access.js";
import * as service from "./aliases.service.js";

const tags = ["aliases"];
// Changes need a signed-in user and are recorded with who made them.
const user = { access: "user" } as const;
const refusals = {
  400: ErrorBodySchema,
  401: ErrorBodySchema,
  403: ErrorBodySchema,
  404: ErrorBodySchema,
  409: ErrorBodySchema,
};
const SuggestionQuerySchema = z.strictObject({
  all: z
    .enum(["true", "false"])
    .optional()
    .describe("true to include confirmed and dismissed suggestions; open ones only by default"),
});

/** Renamed tests keep their history: aliases, their undo, and suggested renames. */
export const aliasesRoutes =
  (db: Db): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      "/v1/test-aliases",
      {
        schema: {
          tags,
          summary: "Aliases (old test → the test it is now), newest first",
          querystring: AliasListQuerySchema,
          response: { 200: AliasListSchema, 400: ErrorBodySchema, 404: ErrorBodySchema },
        },
      },
      async (request) => service.listAliases(db, request.query),
    );

    app.post(
      "/v1/test-aliases",
      {
        config: user,
        schema: {
          tags,
          summary: "Make a test an alias of another by hand: its history follows the new test",
          description:
            "400 for a test aliased to itself or across families, 404 for an unknown test, 409 when the old test is already an alias or the alias would close a cycle.",
          body: CreateAliasBodySchema,
          response: { 201: AliasSchema, ...refusals },
        },
      },
      async (request, reply) => {
        const alias = await service.createAlias(
          db,
          request.body,
          principalLabel(request.principal),
        );
        return reply.code(201).send(alias);
      },
    );

    app.post(
      "/v1/test-aliases/:id/undo",
      {
        config: user,
        schema: {
          tags,
          summary: "Undo an alias (kept in the journal with who undid it and when)",
          params: AliasIdParamsSchema,
          response: { 200: AliasSchema, ...refusals },
        },
      },
      async (request) =>
        service.undoAlias(db, request.params.id, principalLabel(request.principal)),
    );

    app.get(
      "/v1/test-aliases/suggestions",
      {
        schema: {
          tags,
          summary:
            "Suggested renames: a test gone from a run and a new one with its file and steps",
          querystring: SuggestionQuerySchema,
          response: { 200: AliasSuggestionListSchema, 400: ErrorBodySchema },
        },
      },
      async (request) => service.listSuggestions(db, request.query.all === "true"),
    );

    app.post(
      "/v1/test-aliases/suggestions/:id/confirm",
      {
        config: user,
        schema: {
          tags,
          summary: "Confirm a suggested rename: the alias is made",
          params: SuggestionIdParamsSchema,
          response: { 201: AliasSchema, ...refusals },
        },
      },
      async (request, reply) => {
        const alias = await service.confirmSuggestion(
          db,
          request.params.id,
          principalLabel(request.principal),
        );
        return reply.code(201).send(alias);
      },
    );

    app.post(
      "/v1/test-aliases/suggestions/:id/dismiss",
      {
        config: user,
        schema: {
          tags,
          summary: "Dismiss a suggested rename: no alias, the suggestion is not shown again",
          params: SuggestionIdParamsSchema,
          response: { 200: AliasSuggestionSchema, ...refusals },
        },
      },
      async (request) =>
        service.dismissSuggestion(db, request.params.id, principalLabel(request.principal)),
    );
  };
