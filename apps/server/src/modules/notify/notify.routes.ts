import {
  ErrorBodySchema,
  NotifyArchivedSchema,
  NotifyRuleBodySchema,
  NotifyRuleIdParamsSchema,
  NotifyRuleListSchema,
  NotifyRuleSchema,
} from "@assay/core";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { actorOf } from "../settings/settings.service.js";
import {
  archiveRule,
  createRule,
  listRules,
  updateRule,
  type NotifyDeps,
} from "./notify.service.js";

const tags = ["notify"];
// Rules hold recipients and secrets: reading needs a signed-in user, changing an administrator.
const user = { access: "user" } as const;
const admin = { access: "admin" } as const;
const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema };
const BODY =
  "channel slack | teams | webhook: secret is the webhook URL (https to a public address; ASSAY_WEBHOOK_ALLOW_PRIVATE allows private ones). channel email: email {host, port, secure, user, from, to[]} and secret the SMTP password. Left out on PUT, the stored secret is kept. Secrets are never answered.";

/** Notification rules (issue 38), shown and edited on the Setting screen. */
export const notifyRoutes =
  (deps: NotifyDeps): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      "/v1/notify/rules",
      {
        config: user,
        schema: {
          tags,
          summary: "Notification rules, each with its latest deliveries",
          response: { 200: NotifyRuleListSchema, 401: ErrorBodySchema, 403: ErrorBodySchema },
        },
      },
      async () => listRules(deps),
    );
    app.post(
      "/v1/notify/rules",
      {
        config: admin,
        schema: {
          tags,
          summary: "Add a notification rule",
          description: BODY,
          body: NotifyRuleBodySchema,
          response: { 201: NotifyRuleSchema, ...errors },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await createRule(deps, request.body, actorOf(request.principal))),
    );
    app.put(
      "/v1/notify/rules/:id",
      {
        config: admin,
        schema: {
          tags,
          summary: "Replace a notification rule",
          description: BODY,
          params: NotifyRuleIdParamsSchema,
          body: NotifyRuleBodySchema,
          response: {
            200: NotifyRuleSchema,
            ...errors,
            404: ErrorBodySchema,
            409: ErrorBodySchema,
          },
        },
      },
      async (request) =>
        updateRule(deps, request.params.id, request.body, actorOf(request.principal)),
    );
    app.delete(
      "/v1/notify/rules/:id",
      {
        config: admin,
        schema: {
          tags,
          summary: "Archive a notification rule (its deliveries are kept)",
          params: NotifyRuleIdParamsSchema,
          response: {
            200: NotifyArchivedSchema,
            ...errors,
            404: ErrorBodySchema,
            409: ErrorBodySchema,
          },
        },
      },
      async (request) => archiveRule(deps, request.params.id, actorOf(request.principal)),
    );
  };
