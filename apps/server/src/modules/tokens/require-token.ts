import type { FastifyReply, FastifyRequest } from "fastify";
import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import { AppError } from "../../errors.js";
import { verifyToken, type TokenScope } from "./tokens.service.js";

function bearerOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return match?.[1];
}

/**
 * An onRequest hook that admits requests carrying a service token with `scope`: 401 when the token is
 * missing or unknown, 403 when it lacks the scope. Nothing of the request is read before this.
 */
export function requireToken(
  db: Kysely<Database>,
  scope: TokenScope,
  envIngestToken: string | undefined,
) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const token = bearerOf(request);
    reply.header("www-authenticate", 'Bearer realm="assay"');
    if (!token) {
      throw new AppError(
        401,
        "unauthorized",
        "A service token is required: send 'Authorization: Bearer <token>' (create one with `npx assay tokens create --name NAME`).",
      );
    }
    const principal = await verifyToken(db, token, envIngestToken);
    if (!principal) {
      throw new AppError(
        401,
        "unauthorized",
        "The service token is not valid (unknown or revoked).",
      );
    }
    if (!principal.scopes.includes(scope)) {
      throw new AppError(
        403,
        "forbidden",
        `The token "${principal.name}" does not have the ${scope} scope.`,
      );
    }
    request.log.info({ tokenName: principal.name }, "service token accepted");
  };
}
