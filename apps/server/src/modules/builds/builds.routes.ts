import {
  BackendRerunBodySchema,
  BUILD_LIST_PATHS,
  BUILD_LOG_TAIL_BYTES,
  BuildDetailSchema,
  BuildIdParamsSchema,
  BuildListQuerySchema,
  BuildPageSchema,
  CreatedBuildSchema,
  ErrorBodySchema,
  RerunBodySchema,
  RunKeyParamsSchema,
  type BuildList,
} from "@assay/core";
import type { FastifyReply } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { AppError } from "../../errors.js";
import type { Principal } from "../auth/access.js";
import { seesEmails } from "../auth/people.js";
import type { BuildRunner } from "./builds.runner.js";
import { rerun } from "./builds.rerun.js";
import {
  createBuild,
  getBuildRow,
  listBuilds,
  toBuild,
  buildEvents,
  type BuildsDeps,
} from "./builds.service.js";

const tags = ["builds"];
// Builds, stops and reruns need a signed-in user (spec section 6); a service token gets 403.
const user = { access: "user" } as const;
const errors = {
  400: ErrorBodySchema,
  401: ErrorBodySchema,
  403: ErrorBodySchema,
  404: ErrorBodySchema,
};
const createErrors = { ...errors, 409: ErrorBodySchema, 429: ErrorBodySchema };

const LIST_SUMMARY: Record<BuildList, string> = {
  frontend: "Frontend builds",
  china: "Frontend builds in the China region",
  backend: "Backend (API) builds",
  load: "Load builds",
};
const PAYLOAD_NAME: Record<BuildList, string> = {
  frontend: "the frontend payload (FrontendBuildShape in @assay/core)",
  china: "the frontend payload (FrontendBuildShape in @assay/core)",
  backend: "the backend payload (BackendBuildSchema)",
  load: "the load payload (LoadBuildSchema)",
};

/** The request's signed-in user; the access rule "user" guarantees one. */
function userOf(principal: Principal | undefined): Extract<Principal, { kind: "user" }> {
  if (principal?.kind !== "user")
    throw new AppError(403, "forbidden", "This action needs a signed-in user.");
  return principal;
}

/** A 429 tells when to come back (Retry-After), as well as saying it in its message. */
async function withRetryAfter<T>(reply: FastifyReply, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof AppError && error.statusCode === 429) {
      const seconds =
        (error.details as { retryAfterSeconds?: number } | undefined)?.retryAfterSeconds ?? 60;
      reply.header("retry-after", String(seconds));
    }
    throw error;
  }
}

/** Builds (spec section 7): the four lists, one build with its log, Stop, and the reruns. */
export const buildsRoutes =
  (deps: BuildsDeps, runner: BuildRunner): FastifyPluginAsyncZod =>
  async (app) => {
    for (const [list, url] of Object.entries(BUILD_LIST_PATHS) as [BuildList, string][]) {
      app.get(
        url,
        {
          schema: {
            tags,
            summary: `${LIST_SUMMARY[list]}, newest first`,
            description:
              "`active` counts the list's builds still IN_PROGRESS: refresh while it is above 0.",
            querystring: BuildListQuerySchema,
            response: { 200: BuildPageSchema, 400: ErrorBodySchema },
          },
        },
        async (request) => listBuilds(deps, list, request.query, seesEmails(request.principal)),
      );
      app.post(
        url,
        {
          config: user,
          schema: {
            tags,
            summary: `Start a build: ${LIST_SUMMARY[list].toLowerCase()}`,
            description: `The body is ${PAYLOAD_NAME[list]}; it is checked by the dialog's rules, with their messages. 429 with Retry-After past the per-user rate limit.`,
            body: z.record(z.string(), z.unknown()).describe("Build payload (spec section 3)"),
            response: { 201: CreatedBuildSchema, ...createErrors },
          },
        },
        async (request, reply) => {
          const build = await withRetryAfter(reply, () =>
            createBuild(deps, list, userOf(request.principal), request.body),
          );
          return reply.status(201).send({ build });
        },
      );
    }

    app.get(
      "/v1/builds/:id",
      {
        schema: {
          tags,
          summary: "One build with the tail of its log",
          params: BuildIdParamsSchema,
          response: { 200: BuildDetailSchema, ...errors },
        },
      },
      async (request) => {
        const row = await getBuildRow(deps.db, request.params.id);
        return {
          ...toBuild(row, seesEmails(request.principal)),
          events: await buildEvents(deps.db, row.id),
          log: await runner.logTail(row, BUILD_LOG_TAIL_BYTES),
        };
      },
    );

    app.get(
      "/v1/builds/:id/log",
      {
        schema: {
          tags,
          summary: "Download a build's whole log (text)",
          params: BuildIdParamsSchema,
          response: { 200: z.unknown().describe("The log, text/plain"), ...errors },
        },
      },
      async (request, reply) => {
        const row = await getBuildRow(deps.db, request.params.id);
        const stream = await runner.logStream(row);
        if (!stream) {
          throw new AppError(
            404,
            "no_log",
            `Build ${row.id} has no log in Assay${row.external_url ? `; see ${row.external_url}` : " yet"}.`,
          );
        }
        return reply
          .header("content-type", "text/plain; charset=utf-8")
          .header("content-disposition", `attachment; filename="build-${row.id}.log"`)
          .header("x-content-type-options", "nosniff")
          .send(stream);
      },
    );

    app.post(
      "/v1/builds/:id/stop",
      {
        config: user,
        schema: {
          tags,
          summary: "Stop a build (a local build's whole process group is ended)",
          params: BuildIdParamsSchema,
          response: { 200: CreatedBuildSchema, ...errors, 409: ErrorBodySchema },
        },
      },
      async (request) => {
        const who = userOf(request.principal);
        const row = await getBuildRow(deps.db, request.params.id);
        if (row.build_status !== "IN_PROGRESS") {
          throw new AppError(
            409,
            "build_finished",
            `Build ${row.id} has already ended (${row.build_status}).`,
          );
        }
        await runner.stop(row, who.name || who.email);
        return { build: toBuild(await getBuildRow(deps.db, row.id)) };
      },
    );

    const reruns = [
      { url: "/v1/test-runs/:key/rerun", family: "frontend" as const, body: RerunBodySchema },
      {
        url: "/v1/api-test-run/:key/rerun",
        family: "backend" as const,
        body: BackendRerunBodySchema,
      },
    ];
    for (const { url, family, body } of reruns) {
      app.post(
        url,
        {
          config: user,
          schema: {
            tags,
            summary: `Rerun the ${family === "frontend" ? "failed or unstable" : "failed"} tests of a ${family} run`,
            description:
              "Starts a build of only those tests; their results land in the same run as new attempts (the last attempt decides; a pass on rerun is flaky).",
            params: RunKeyParamsSchema,
            body,
            response: { 201: CreatedBuildSchema, ...createErrors },
          },
        },
        async (request, reply) => {
          const build = await withRetryAfter(reply, () =>
            rerun(deps, family, request.params.key, request.body.tests, userOf(request.principal)),
          );
          return reply.status(201).send({ build });
        },
      );
    }
  };
