import { timingSafeEqual } from "node:crypto";
import type { FastifyRequest } from "fastify";
import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import { AppError } from "../../errors.js";
import type { Principal, PrincipalResolver } from "./access.js";
import { accountForToken, principalOf, type IssuerIdentity } from "./accounts.service.js";
import { bearerOf } from "./bearer.js";
import { ownOrigin, type HandoffHosts } from "./handoff/handoff-hosts.js";
import { looksLikeJwt, type JwtVerifier } from "./jwt-verifier.js";
import { sessionIdOf, type CookieSettings } from "./session-cookie.js";
import { findActiveSession, type ActiveSession, type SessionContext } from "./sessions.service.js";

declare module "fastify" {
  interface FastifyRequest {
    /** The browser session the request came with, when it was signed in by its cookie. */
    authSession?: ActiveSession;
  }
}

export interface PrincipalDeps {
  db: Kysely<Database>;
  /** Service tokens (bearer tokens that are not JWTs). */
  serviceTokens: PrincipalResolver;
  verifyJwt: JwtVerifier;
  identity: IssuerIdentity;
  sessions: SessionContext;
  cookies: CookieSettings;
  /**
   * ASSAY_PUBLIC_URL and the data-harmonization hosts: a cookie-authenticated change must come
   * from the origin of the host it was made to (ownOrigin).
   */
  hosts: HandoffHosts;
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

const csrfRefused = (why: string) =>
  new AppError(
    403,
    "csrf_refused",
    `This change was refused because ${why}. Reload Assay and try again; scripts should send a bearer token instead of a cookie.`,
  );

/** Constant-time comparison of two secrets. */
export function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a, "utf8");
  const right = Buffer.from(b, "utf8");
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * A change made with the session cookie must come from Assay's own pages: an Origin equal to
 * ASSAY_PUBLIC_URL and the session's CSRF token in x-csrf-token (OWASP: Origin check plus a
 * synchronizer token). Bearer requests carry no ambient credential and are exempt.
 */
export function checkCsrf(request: FastifyRequest, session: ActiveSession, origin: string): void {
  if (SAFE_METHODS.has(request.method)) return;
  if (request.headers.origin !== origin) throw csrfRefused("it came from another site");
  const token = request.headers["x-csrf-token"];
  if (typeof token !== "string" || !sameSecret(token, session.csrfToken)) {
    throw csrfRefused("its CSRF token is missing or wrong");
  }
}

async function jwtPrincipal(deps: PrincipalDeps, request: FastifyRequest, token: string) {
  const payload = await deps.verifyJwt(token);
  const account = await accountForToken(deps.db, deps.identity, payload.sub);
  if (!account) {
    throw new AppError(
      401,
      "unauthorized",
      "The access token's user is not an active Assay user. Sign in to Assay in a browser once, or ask an administrator.",
    );
  }
  request.log.info({ userId: account.id }, "access token accepted");
  return principalOf(account);
}

/**
 * Who a request comes from: a bearer token (an issuer's access token when it is a JWT, else a
 * service token), or the session cookie. A bad bearer token is a 401 whatever the route; a bad
 * or expired cookie just means signed out, so a stale cookie never breaks public reading.
 */
export function createPrincipalResolver(deps: PrincipalDeps): PrincipalResolver {
  return async (request): Promise<Principal | undefined> => {
    const bearer = bearerOf(request);
    if (bearer !== undefined) {
      return looksLikeJwt(bearer)
        ? jwtPrincipal(deps, request, bearer)
        : deps.serviceTokens(request);
    }
    const id = sessionIdOf(request, deps.cookies);
    if (!id) return undefined;
    const session = await findActiveSession(deps.sessions, id);
    if (!session) return undefined;
    checkCsrf(request, session, ownOrigin(deps.hosts, request));
    request.authSession = session;
    return session.principal;
  };
}
