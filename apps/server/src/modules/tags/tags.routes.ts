import {
  AttachTagBodySchema,
  CreateTagBodySchema,
  DeletedTaggedTestSchema,
  DeletedTagSchema,
  ErrorBodySchema,
  RestoredTagSchema,
  TaggedTestIdParamsSchema,
  TagIdParamsSchema,
  TagLinkSchema,
  TagListSchema,
  TagTestParamsSchema,
} from "@assay/core";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { Db } from "../../db/pool.js";
import {
  addTagToTest,
  attachTagToTest,
  deleteTag,
  listTags,
  removeTaggedTest,
  restoreTag,
} from "./tags.service.js";
import { principalLabel } from "../auth/access.js";

const tags = ["tags"];
// Changes need a signed-in user (spec section 6); a service token is refused with 403.
const user = { access: "user" } as const;
const mutationErrors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema };

/** Dynamic tags (spec section 7): the list, adding a tag to a test, and removals. */
export const tagsRoutes =
  (db: Db): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      "/v1/dtag",
      {
        schema: {
          tags,
          summary: "Every dynamic tag with its tests: by-tag map and selection list",
          response: { 200: TagListSchema },
        },
      },
      async () => listTags(db),
    );

    // The spec's client posts to "/v1/dtag/"; both forms are served, the slash one undocumented.
    for (const url of ["/v1/dtag", "/v1/dtag/"]) {
      app.post(
        url,
        {
          config: user,
          schema: {
            tags,
            hide: url.endsWith("/"),
            summary: "Put a tag on a test, creating the tag if it is new",
            description:
              "201 when the test was tagged now; 200 with alreadyTagged=true when it already had the tag (nothing changes).",
            body: CreateTagBodySchema,
            response: {
              200: TagLinkSchema,
              201: TagLinkSchema,
              ...mutationErrors,
              404: ErrorBodySchema,
            },
          },
        },
        async (request, reply) => {
          const link = await addTagToTest(db, request.body);
          return reply.status(link.alreadyTagged ? 200 : 201).send(link);
        },
      );
    }

    app.put(
      "/v1/dtag/:id/test/:testId",
      {
        config: user,
        schema: {
          tags,
          summary: "Put an existing tag on a test",
          description:
            "201 when the test was tagged now; 200 with alreadyTagged=true when it already had the tag.",
          params: TagTestParamsSchema,
          body: AttachTagBodySchema,
          response: {
            200: TagLinkSchema,
            201: TagLinkSchema,
            ...mutationErrors,
            404: ErrorBodySchema,
          },
        },
      },
      async (request, reply) => {
        const { id, testId } = request.params;
        const link = await attachTagToTest(db, id, testId, request.body ?? {});
        return reply.status(link.alreadyTagged ? 200 : 201).send(link);
      },
    );

    app.delete(
      "/v1/dtag/:id",
      {
        config: user,
        schema: {
          tags,
          summary: "Delete a tag and take every test out of it",
          description:
            "The tag and the tests it held are kept: POST /v1/dtag/{id}/restore puts them back. The '@unstable' tag drives the unstable status and answers 409.",
          params: TagIdParamsSchema,
          response: {
            200: DeletedTagSchema,
            ...mutationErrors,
            404: ErrorBodySchema,
            409: ErrorBodySchema,
          },
        },
      },
      async (request) => deleteTag(db, request.params.id, principalLabel(request.principal)),
    );

    app.post(
      "/v1/dtag/:id/restore",
      {
        config: user,
        schema: {
          tags,
          summary: "Put a deleted tag back with the tests it held (the screen's Undo)",
          description:
            "id is the deleted tag's. A tag made with its name since gets those tests too. 404 when it is not deleted (restored already).",
          params: TagIdParamsSchema,
          response: { 200: RestoredTagSchema, ...mutationErrors, 404: ErrorBodySchema },
        },
      },
      async (request) => restoreTag(db, request.params.id),
    );

    app.delete(
      "/v1/tagged_test/:id",
      {
        config: user,
        schema: {
          tags,
          summary: "Take one test out of one tag",
          params: TaggedTestIdParamsSchema,
          response: { 200: DeletedTaggedTestSchema, ...mutationErrors, 404: ErrorBodySchema },
        },
      },
      async (request) => removeTaggedTest(db, request.params.id),
    );
  };
