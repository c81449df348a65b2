import { createHash, timingSafeEqual } from "node:crypto";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { AppError } from "../../errors.js";
import { isPagePath } from "../../http/web-app.js";
import type { TokenScope } from "../tokens/tokens.service.js";

/**
 * Who may call a route. Every route declares one in `config.access`; GET routes without one are
 * "read", and any other route without one stops the server at start, so no mutation can be left
 * open by accident.
 * - open: anyone (health checks, sign-in, the web app's build files);
 * - identify: anyone, and the caller is known when they send a credential (GET /v1/me: who is
 *   signed in; nobody is an answer there, not a 401);
 * - page: the web app's HTML: anyone in public read mode; in signed-in mode a visitor without a
 *   session is redirected to sign-in (a browser should land on the login page, not on a 401);
 * - read: lists and results: anyone in public read mode, a signed-in caller in signed-in mode;
 * - badge: as read, and in signed-in mode also anyone who sends ?token=ASSAY_BADGE_TOKEN (a
 *   README's badge cannot sign in);
 * - ingest: a service token with the ingest scope, or a signed-in user;
 * - user: a signed-in user (builds, reruns, tags, settings, profile);
 * - admin: a user or service token with the admin scope.
 */
export type Access = "open" | "identify" | "page" | "read" | "badge" | "ingest" | "user" | "admin";

/** One route of the server and the rule it declared (or was given), for the route-table test. */
export interface RouteRule {
  method: string;
  url: string;
  access: Access;
}

export type Principal =
  | { kind: "user"; id: number; email: string; name: string; admin: boolean }
  | {
      kind: "service_token";
      name: string;
      scopes: readonly TokenScope[];
      /** A build's ASSAY_TOKEN: it may ingest into this run only. */
      runKey?: string;
    };

/** Who did something, as kept in the audit columns: a user's e-mail or a service token's name. */
export function principalLabel(principal: Principal | undefined): string {
  if (!principal) return "unknown";
  return principal.kind === "user" ? principal.email : `token:${principal.name}`;
}

/** Who the request comes from, or undefined; throws a 401 AppError for a bad credential. */
export type PrincipalResolver = (request: FastifyRequest) => Promise<Principal | undefined>;

export type ReadAccess = "public" | "signed-in";

declare module "fastify" {
  interface FastifyContextConfig {
    access?: Access;
  }
  interface FastifyRequest {
    principal?: Principal;
  }
  interface FastifyInstance {
    /** Every route registered so far with its access rule (one entry per method). */
    accessTable: RouteRule[];
  }
}

const SIGN_IN =
  "Sign in first, or send 'Authorization: Bearer <token>' (make a service token with `npx assay tokens create --name NAME`).";

function unauthorized(message = SIGN_IN) {
  return new AppError(401, "unauthorized", message);
}

function forbidden(message: string) {
  return new AppError(403, "forbidden", message);
}

/** Whether `principal` may call a route with `access`; throws 401 or 403 when not. */
export function checkAccess(
  access: Access,
  principal: Principal | undefined,
  readAccess: ReadAccess,
): void {
  if (access === "open" || access === "identify") return;
  if (access === "read" || access === "page" || access === "badge") {
    if (readAccess === "public" || principal) return;
    throw unauthorized("This Assay requires sign-in to read results. " + SIGN_IN);
  }
  if (!principal) throw unauthorized();
  if (access === "ingest") {
    if (principal.kind === "user" || principal.scopes.includes("ingest")) return;
    throw forbidden(`The token "${principal.name}" does not have the ingest scope.`);
  }
  if (access === "user") {
    if (principal.kind === "user") return;
    throw forbidden("This action needs a signed-in user, not a service token.");
  }
  const admin = principal.kind === "user" ? principal.admin : principal.scopes.includes("admin");
  if (!admin) throw forbidden("This action needs the admin scope.");
}

/**
 * A build's token (ASSAY_TOKEN) sends results into its own run only: any other run, or a new one,
 * is refused. Other principals are not limited to a run.
 */
export function checkRunScope(principal: Principal | undefined, runKey: string | undefined): void {
  if (principal?.kind !== "service_token" || principal.runKey === undefined) return;
  if (runKey !== principal.runKey) {
    throw forbidden(
      `This build's token may only send results to run "${principal.runKey}" (ASSAY_RUN_KEY); pass --run-key "$ASSAY_RUN_KEY".`,
    );
  }
}

/**
 * The only routes a build's token (ASSAY_TOKEN) may call: sending results, and the reads a CI job
 * acts on (its run's gate and diff, the flaky list: which tests to quarantine or retry). Every
 * other route refuses it, whatever its rule says, so a route added later is closed to runners
 * until it is listed here. Each listed run route still keeps the token to its own run
 * (checkRunScope).
 */
export const BUILD_TOKEN_ROUTES: ReadonlySet<string> = new Set([
  "POST /v1/ingest/reports",
  "POST /v1/ingest/runs",
  "POST /v1/ingest/runs/:key/results",
  "POST /v1/ingest/runs/:key/results/:test_run_test_id/attachments",
  "POST /v1/ingest/runs/:key/finish",
  // Reads of its own run a CI job makes after sending it (the route keeps it to that run).
  "GET /v1/runs/:a/diff/:b",
  "GET /v1/runs/:key/previous",
  // The flaky list: which tests a CI job quarantines or retries.
  "GET /v1/flaky-tests",
  // The quality gate of its own run (issue 34: a pipeline fails on new, unexplained failures).
  "GET /v1/runs/:key/gate",
]);

/** Refuses a build's token on any route but BUILD_TOKEN_ROUTES (`route` is "METHOD /url"). */
export function checkBuildTokenRoute(principal: Principal | undefined, route: string): void {
  if (principal?.kind !== "service_token" || principal.runKey === undefined) return;
  if (BUILD_TOKEN_ROUTES.has(route)) return;
  throw forbidden(
    `A build's token (ASSAY_TOKEN) may only send results into its run ("${principal.runKey}"); use a service token or sign in for anything else.`,
  );
}

/** The access rule of a route: declared, or "read" for GET/HEAD. */
export function routeAccess(
  method: string | string[],
  declared: Access | undefined,
): Access | undefined {
  if (declared) return declared;
  const methods = Array.isArray(method) ? method : [method];
  return methods.every((m) => m === "GET" || m === "HEAD") ? "read" : undefined;
}

/**
 * The rule of a request. Requests no route matched are pages of the web app when they ask for
 * a page path (the not-found handler serves index.html for them), else what their method implies.
 */
function requestAccess(request: FastifyRequest): Access {
  if (request.is404) {
    const pathname = request.url.split("?")[0] ?? "/";
    const read = request.method === "GET" || request.method === "HEAD";
    return read && isPagePath(pathname) ? "page" : read ? "read" : "user";
  }
  return routeAccess(request.method, request.routeOptions.config?.access) ?? "user";
}

/** Where a signed-out visitor of a page goes in signed-in mode: sign-in, then back here. */
export function signInRedirect(url: string): string {
  return `/auth/login?return_to=${encodeURIComponent(url)}`;
}

/**
 * Installs the access rules: refuses to register a mutation without an access rule, records
 * every route's rule in `app.accessTable`, and checks every request before its body is read.
 */
/** Whether the request carries the badge token (compared in constant time, as digests). */
function hasBadgeToken(request: FastifyRequest, token: string | undefined): boolean {
  const given = (request.query as { token?: unknown } | undefined)?.token;
  if (!token || typeof given !== "string") return false;
  const digest = (value: string) => createHash("sha256").update(value).digest();
  return timingSafeEqual(digest(given), digest(token));
}

export function registerAccessControl(
  app: FastifyInstance,
  options: { resolvePrincipal: PrincipalResolver; readAccess: ReadAccess; badgeToken?: string },
): void {
  const table: RouteRule[] = [];
  app.decorate("accessTable", table);
  app.addHook("onRoute", (route) => {
    const access = routeAccess(route.method, route.config?.access);
    if (!access) {
      throw new Error(
        `route ${String(route.method)} ${route.url} declares no access rule (config.access)`,
      );
    }
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      // Read when asked: a plugin's own onRoute hook (after this one) may still set the rule.
      table.push({
        method,
        url: route.url,
        get access() {
          return routeAccess(route.method, route.config?.access) ?? access;
        },
      });
    }
  });
  app.addHook("onRequest", async (request, reply) => {
    const access = requestAccess(request);
    if (access === "open") return;
    if (access === "page" && options.readAccess === "public") return;
    if (access === "badge" && hasBadgeToken(request, options.badgeToken)) return;
    request.principal = await options.resolvePrincipal(request);
    if (access === "page" && !request.principal) {
      return reply.header("cache-control", "no-store").redirect(signInRedirect(request.url), 302);
    }
    checkAccess(access, request.principal, options.readAccess);
    // HEAD is served by its GET route; a request no route matched has no route to be listed.
    const method = request.method === "HEAD" ? "GET" : request.method;
    const url = request.is404 ? "" : (request.routeOptions.url ?? "");
    checkBuildTokenRoute(request.principal, `${method} ${url}`);
  });
}
