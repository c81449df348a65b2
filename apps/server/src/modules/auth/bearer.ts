import type { FastifyRequest } from "fastify";
import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import { AppError } from "../../errors.js";
import { verifyToken } from "../tokens/tokens.service.js";
import { BUILD_TOKEN_PREFIX, hashBuildToken } from "../builds/build-env.js";
import { findActiveByTokenHash } from "../builds/builds.repo.js";
import type { Principal, PrincipalResolver } from "./access.js";

/** The bearer token of the Authorization header, if any. */
export function bearerOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return match?.[1];
}

/**
 * Resolves service tokens sent as bearer tokens. A token that is sent but unknown or revoked is
 * a 401, whatever the route: a caller should hear that its credential is wrong.
 */
export function serviceTokenResolver(
  db: Kysely<Database>,
  envIngestToken: string | undefined,
): PrincipalResolver {
  return async (request): Promise<Principal | undefined> => {
    const token = bearerOf(request);
    if (!token) return undefined;
    if (token.startsWith(BUILD_TOKEN_PREFIX)) {
      const build = await findActiveByTokenHash(db, hashBuildToken(token));
      if (!build) {
        throw new AppError(
          401,
          "unauthorized",
          "This build token is not valid: its build has ended or never existed.",
        );
      }
      return {
        kind: "service_token",
        name: `build ${build.id}`,
        scopes: ["ingest"],
        runKey: build.test_run_key,
      };
    }
    const principal = await verifyToken(db, token, envIngestToken);
    if (!principal)
      throw new AppError(
        401,
        "unauthorized",
        "The bearer token is not valid (unknown, revoked or expired).",
      );
    request.log.info({ tokenName: principal.name }, "service token accepted");
    return { kind: "service_token", name: principal.name, scopes: principal.scopes };
  };
}
