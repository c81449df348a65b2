import type { FastifyRequest } from "fastify";
import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import { AppError } from "../../errors.js";
import { verifyToken } from "../tokens/tokens.service.js";
import type { Principal, PrincipalResolver } from "./access.js";

/** The bearer token of the Authorization header, if any. */
export function bearerOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return match?.[1];
}

/**
 * The tokens builds hand their runners (ASSAY_TOKEN), known by their prefix; the builds module
 * provides the lookup, so that sign-in does not depend on builds.
 */
export interface BuildTokens {
  prefix: string;
  /** The build a token belongs to while it runs; undefined once it ended or if it never was. */
  find(token: string): Promise<{ id: number; test_run_key: string } | undefined>;
}

/**
 * Resolves service tokens sent as bearer tokens. A token that is sent but unknown or revoked is
 * a 401, whatever the route: a caller should hear that its credential is wrong.
 */
export function serviceTokenResolver(
  db: Kysely<Database>,
  envIngestToken: string | undefined,
  buildTokens: BuildTokens,
): PrincipalResolver {
  return async (request): Promise<Principal | undefined> => {
    const token = bearerOf(request);
    if (!token) return undefined;
    if (token.startsWith(buildTokens.prefix)) {
      const build = await buildTokens.find(token);
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
