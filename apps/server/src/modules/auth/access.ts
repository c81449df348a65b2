import type { FastifyInstance, FastifyRequest } from "fastify";
import { AppError } from "../../errors.js";
import type { TokenScope } from "../tokens/tokens.service.js";

/**
 * Who may call a route. Every route declares one in `config.access`; GET routes without one are
 * "read", and any other route without one stops the server at start, so no mutation can be left
 * open by accident.
 * - open: anyone (health checks, the web app's files);
 * - read: lists and results: anyone in public read mode, a signed-in caller in signed-in mode;
 * - ingest: a service token with the ingest scope, or a signed-in user;
 * - user: a signed-in user (builds, reruns, tags, settings, profile);
 * - admin: a user or service token with the admin scope.
 */
export type Access = "open" | "read" | "ingest" | "user" | "admin";

export type Principal =
  | { kind: "user"; id: number; email: string; name: string; admin: boolean }
  | { kind: "service_token"; name: string; scopes: readonly TokenScope[] };

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
  if (access === "open") return;
  if (access === "read") {
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
 * Installs the access rules: refuses to register a mutation without an access rule, and checks
 * every request before its body is read.
 */
export function registerAccessControl(
  app: FastifyInstance,
  options: { resolvePrincipal: PrincipalResolver; readAccess: ReadAccess },
): void {
  app.addHook("onRoute", (route) => {
    const access = routeAccess(route.method, route.config?.access);
    if (!access) {
      throw new Error(
        `route ${String(route.method)} ${route.url} declares no access rule (config.access)`,
      );
    }
  });
  app.addHook("onRequest", async (request) => {
    const access = routeAccess(request.method, request.routeOptions.config?.access) ?? "user";
    if (access === "open") return;
    request.principal = await options.resolvePrincipal(request);
    checkAccess(access, request.principal, options.readAccess);
  });
}
