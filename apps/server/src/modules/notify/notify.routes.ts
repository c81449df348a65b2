import {
  ErrorBodySchema,
  NotifyArchivedSchema,
  NotifyRuleBodySchema,
  NotifyRuleIdParamsSchema,
  NotifyRuleListSchema,
  NotifyRuleSchema,
} from "@assay/core";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { registerWriteRoutes } from "../../http/write-routes.js";
import { principalLabel } from "../auth/access.js";
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
    registerWriteRoutes(app, {
      path: "/v1/notify/rules",
      access: "admin",
      tags,
      summaries: {
        create: "Add a notification rule",
        replace: "Replace a notification rule",
        remove: "Archive a notification rule (its deliveries are kept)",
      },
      description: BODY,
      body: NotifyRuleBodySchema,
      params: NotifyRuleIdParamsSchema,
      item: NotifyRuleSchema,
      removed: NotifyArchivedSchema,
      // A rule kept in assay.config.yaml is read-only here.
      conflicts: true,
      create: (body, request) => createRule(deps, body, principalLabel(request.principal)),
      replace: (id, body, request) => updateRule(deps, id, body, principalLabel(request.principal)),
      remove: (id, request) => archiveRule(deps, id, principalLabel(request.principal)),
    });
  };
