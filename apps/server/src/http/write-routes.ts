import { ErrorBodySchema } from "@assay/core";
import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { z } from "zod";

type ZodApp = Parameters<FastifyPluginAsyncZod>[0];

/** What a list edited on a screen (notification rules, schedules) writes through. */
export interface WriteRoutes<Body extends z.ZodType> {
  /** The list's path: POST adds to it, PUT and DELETE take `${path}/:id`. */
  path: string;
  access: "user" | "admin";
  tags: string[];
  summaries: { create: string; replace: string; remove: string };
  /** The body's rules in words (POST and PUT). */
  description: string;
  body: Body;
  params: z.ZodType<{ id: number }>;
  /** The item as answered after POST (201) and PUT (200). */
  item: z.ZodType;
  /** The answer of DELETE. */
  removed: z.ZodType;
  /** 409 on PUT and DELETE: items that cannot change here (a rule kept in the file). */
  conflicts?: boolean;
  create(body: z.infer<Body>, request: FastifyRequest): Promise<unknown>;
  replace(id: number, body: z.infer<Body>, request: FastifyRequest): Promise<unknown>;
  remove(id: number, request: FastifyRequest): Promise<unknown>;
}

/**
 * POST, PUT and DELETE of one list, with the answers every write can give (400 bad input, 401
 * signed out, 403 not allowed; 404 an unknown id), so that each list states only what differs.
 */
export function registerWriteRoutes<Body extends z.ZodType>(
  app: ZodApp,
  routes: WriteRoutes<Body>,
): void {
  const config = { access: routes.access } as const;
  const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema };
  const byId = {
    ...errors,
    404: ErrorBodySchema,
    ...(routes.conflicts ? { 409: ErrorBodySchema } : {}),
  };
  const { tags, summaries, description, body, params } = routes;
  const idOf = (request: FastifyRequest) => (request.params as { id: number }).id;
  app.post(
    routes.path,
    {
      config,
      schema: {
        tags,
        summary: summaries.create,
        description,
        body,
        response: { 201: routes.item, ...errors },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await routes.create(request.body as z.infer<Body>, request)),
  );
  app.put(
    `${routes.path}/:id`,
    {
      config,
      schema: {
        tags,
        summary: summaries.replace,
        description,
        params,
        body,
        response: { 200: routes.item, ...byId },
      },
    },
    async (request) => routes.replace(idOf(request), request.body as z.infer<Body>, request),
  );
  app.delete(
    `${routes.path}/:id`,
    {
      config,
      schema: {
        tags,
        summary: summaries.remove,
        params,
        response: { 200: routes.removed, ...byId },
      },
    },
    async (request) => routes.remove(idOf(request), request),
  );
}
