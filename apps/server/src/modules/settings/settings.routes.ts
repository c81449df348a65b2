import {
  DeletedSettingSchema,
  ErrorBodySchema,
  ScheduleSlotSchema,
  SettingBodySchema,
  SettingIdParamsSchema,
  SettingListSchema,
  SettingSchema,
} from "@assay/core";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { registerWriteRoutes } from "../../http/write-routes.js";
import type { Db } from "../../db/pool.js";
import { notFound } from "../../errors.js";
import { runNow, type SchedulerDeps } from "./scheduler.js";
import type { LaunchedBy } from "./build-launcher.js";
import { principalLabel, type Principal } from "../auth/access.js";
import { seesEmails } from "../auth/people.js";
import {
  createSetting,
  deleteSetting,
  listSettings,
  seesWebhooks,
  toSlot,
  updateSetting,
  type SaveContext,
} from "./settings.service.js";
import type { WebhookPolicy } from "./webhook-url.js";

const tags = ["settings"];
// Changes need a signed-in user (spec section 6); a service token is refused with 403.
const user = { access: "user" } as const;
const mutationErrors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema };
const BODY_DESCRIPTION =
  "name is required and non-empty; isActive 0 or 1. A cron (5 fields, in timeZone) needs a template: the build it launches. An active setting without one is kept (the spec's {name, description} rows), and Run now on it answers 409 no_build. webhookUrl: https to a public address (ASSAY_WEBHOOK_ALLOW_PRIVATE allows private ones); left out on PUT keeps the stored one.";

/** The Daily Run Scheduler (spec section 7, /v1/setting) and 'Run now'. */
export const settingsRoutes =
  (db: Db, scheduler: SchedulerDeps, webhooks: WebhookPolicy): FastifyPluginAsyncZod =>
  async (app) => {
    const saver = (principal: Principal | undefined): SaveContext => ({
      by: principalLabel(principal),
      fullWebhook: seesWebhooks(principal),
      webhooks,
      checkTemplate: scheduler.launcher.check?.bind(scheduler.launcher),
      minIntervalMs: scheduler.minIntervalMs,
    });
    /** Who pressed Run now: the route is for signed-in users only ("user" access). */
    const presser = (request: { principal?: Principal }): LaunchedBy => {
      const principal = request.principal;
      if (principal?.kind !== "user") throw new Error("Run now reached without a signed-in user");
      return { id: principal.id, email: principal.email, name: principal.name };
    };
    app.get(
      "/v1/setting",
      {
        schema: {
          tags,
          summary: "Every setting by name, with its schedule, next three runs and latest slots",
          response: { 200: SettingListSchema },
        },
      },
      async (request) =>
        listSettings(
          db,
          seesWebhooks(request.principal),
          new Date(),
          seesEmails(request.principal),
        ),
    );

    registerWriteRoutes(app, {
      path: "/v1/setting",
      access: "user",
      tags,
      summaries: {
        create: "Create a setting (a schedule)",
        replace: "Replace a setting",
        remove:
          "Delete a setting: it leaves the list and never runs again; it and its slots' history are kept (archived)",
      },
      description: BODY_DESCRIPTION,
      body: SettingBodySchema,
      params: SettingIdParamsSchema,
      item: SettingSchema,
      removed: DeletedSettingSchema,
      create: (body, request) => createSetting(db, body, saver(request.principal)),
      replace: (id, body, request) => updateSetting(db, id, body, saver(request.principal)),
      remove: (id, request) => deleteSetting(db, id, principalLabel(request.principal)),
    });

    app.post(
      "/v1/setting/:id/run",
      {
        config: user,
        schema: {
          tags,
          summary: "Run now: launch the setting's build at once",
          description:
            "Answers the slot recorded for it: outcome launched (with buildId and testRunKey), failed or unavailable (this server cannot launch builds), with a message. 409 no_build: the setting has no build to run.",
          params: SettingIdParamsSchema,
          response: {
            201: ScheduleSlotSchema,
            ...mutationErrors,
            404: ErrorBodySchema,
            429: ErrorBodySchema,
            409: ErrorBodySchema,
          },
        },
      },
      async (request, reply) => {
        const slot = await runNow(scheduler, request.params.id, new Date(), presser(request));
        if (!slot) throw notFound(`No setting with id ${request.params.id}.`);
        return reply.status(201).send(toSlot(slot));
      },
    );
  };
