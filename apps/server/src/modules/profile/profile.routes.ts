import {
  ErrorBodySchema,
  MAX_PICTURE_BYTES,
  MeSchema,
  PICTURE_TYPES,
  PictureUploadedSchema,
  ProfileUpdateSchema,
  WhoIsSignedInSchema,
} from "@assay/core";
import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { AppError } from "../../errors.js";
import { editProfile, getProfile, setPicture, toMe, type ProfileDeps } from "./profile.service.js";

const errors = {
  400: ErrorBodySchema,
  401: ErrorBodySchema,
  403: ErrorBodySchema,
  404: ErrorBodySchema,
};

/** The signed-in user's id; "user" access guarantees one. */
function userId(request: FastifyRequest): number {
  const principal = request.principal;
  if (principal?.kind !== "user") throw new AppError(401, "unauthorized", "Sign in first.");
  return principal.id;
}

/**
 * GET /v1/me (who is signed in; signed_in false when nobody is) and the Profile dialog's changes. Changes
 * made with the session cookie need the CSRF token GET /v1/me returns (see auth/principal.ts).
 */
export const profileRoutes =
  (deps: ProfileDeps): FastifyPluginAsyncZod =>
  async (app) => {
    app.addContentTypeParser(
      [...PICTURE_TYPES],
      { parseAs: "buffer", bodyLimit: MAX_PICTURE_BYTES },
      (_request, body, done) => done(null, body),
    );

    const csrfOf = (request: FastifyRequest) => request.authSession?.csrfToken ?? null;

    app.get(
      "/v1/me",
      {
        // Anyone may ask who is signed in; nobody is an answer (signed_in false), not a 401.
        config: { access: "identify" },
        schema: {
          tags: ["profile"],
          summary: "Who is signed in, and their profile; signed_in false when nobody is",
          response: { 200: WhoIsSignedInSchema, ...errors },
        },
      },
      async (request, reply) => {
        // The answer carries the session's CSRF token: no cache may keep it.
        reply.header("cache-control", "no-store");
        const principal = request.principal;
        if (!principal) return { signed_in: false as const };
        if (principal.kind !== "user") {
          throw new AppError(403, "forbidden", "A service token is no user: nobody to describe.");
        }
        return toMe(await getProfile(deps, userId(request)), csrfOf(request));
      },
    );

    app.put(
      "/v1/me",
      {
        config: { access: "user" },
        schema: {
          tags: ["profile"],
          summary: "Edit your profile: name, test-management user and password, picture",
          body: ProfileUpdateSchema,
          response: { 200: MeSchema, ...errors },
        },
      },
      async (request, reply) => {
        reply.header("cache-control", "no-store");
        const row = await editProfile(deps, userId(request), request.body);
        request.log.info({ userId: row.id, fields: Object.keys(request.body) }, "profile edited");
        return toMe(row, csrfOf(request));
      },
    );

    app.put(
      "/v1/me/picture",
      {
        config: { access: "user" },
        bodyLimit: MAX_PICTURE_BYTES,
        schema: {
          tags: ["profile"],
          summary: "Upload your profile picture",
          // The body is the image's bytes (no JSON), so it has a content type, not a schema.
          description: `The image itself as the body: ${PICTURE_TYPES.join(", ")}, at most ${MAX_PICTURE_BYTES / 1024} KiB.`,
          response: {
            200: PictureUploadedSchema,
            413: ErrorBodySchema,
            415: ErrorBodySchema,
            ...errors,
          },
        },
      },
      async (request) => {
        if (!Buffer.isBuffer(request.body)) {
          throw new AppError(
            415,
            "unsupported_picture",
            `Send the picture as the body with Content-Type ${PICTURE_TYPES.join(", ")}.`,
          );
        }
        const row = await setPicture(deps, userId(request), request.body);
        request.log.info({ userId: row.id }, "profile picture changed");
        return { picture: row.picture ?? "" };
      },
    );
  };
