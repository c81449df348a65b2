import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { Config } from "../../config.js";
import type { Db } from "../../db/pool.js";
import { deriveKey } from "../../secret-key.js";
import { apiResourceOf, embeddedClientSettings } from "../identity/provider.js";
import type { PrincipalResolver } from "./access.js";
import { authRoutes } from "./auth.routes.js";
import { refresherFor } from "./auth.service.js";
import { serviceTokenResolver, type BuildTokens } from "./bearer.js";
import { inProcessFetch } from "./in-process-fetch.js";
import { createJwtVerifier, type AudienceRule } from "./jwt-verifier.js";
import { createOidcClient, isCognitoIssuer, type IssuerSettings } from "./oidc-client.js";
import { createPrincipalResolver } from "./principal.js";
import { cookieSettings } from "./session-cookie.js";
import type { SessionContext } from "./sessions.service.js";

/** What Assay asks of its embedded provider; assay:admin reaches admins' tokens only. */
export const EMBEDDED_SCOPES = "openid email phone profile offline_access assay:admin";

/** Keys derived from the installation's secret, one per purpose. */
export function authKeys(secret: Buffer) {
  return {
    /** HMAC key of the session cookie's signature (@fastify/cookie). */
    cookie: deriveKey(secret, "session-cookie"),
    sessionTokens: deriveKey(secret, "session-tokens"),
    loginState: deriveKey(secret, "login-state"),
    /** AES-256-GCM key of the tokens a data-harmonization host's sign-in code carries. */
    handoffTokens: deriveKey(secret, "handoff-tokens"),
  };
}

/** The issuer Assay signs in with: OIDC_ISSUER when set, else the embedded provider. */
export function issuerSettings(
  config: Config,
  secret: Buffer,
  app: FastifyInstance,
): IssuerSettings {
  const common = {
    redirectUri: `${config.publicUrl}/auth/callback`,
    postLogoutRedirectUri: `${config.publicUrl}/`,
  };
  if (config.oidcIssuer && config.oidcClientId && config.oidcClientSecret) {
    return {
      ...common,
      kind: "external",
      issuer: config.oidcIssuer,
      clientId: config.oidcClientId,
      clientSecret: config.oidcClientSecret,
      scopes: config.oidcScopes,
      resource: undefined,
      cognito: isCognitoIssuer(config.oidcIssuer),
      fetch: undefined,
    };
  }
  return {
    ...common,
    ...embeddedClientSettings(config, secret),
    kind: "embedded",
    scopes: EMBEDDED_SCOPES,
    resource: apiResourceOf(config),
    cognito: false,
    fetch: inProcessFetch(app, config.publicUrl),
  };
}

/** Whom the issuer's access tokens must be for (see jwt-verifier.ts). */
export function audienceRule(settings: IssuerSettings, config: Config): AudienceRule {
  if (settings.resource) return { kind: "aud", value: settings.resource };
  if (config.oidcAudience) return { kind: "aud", value: config.oidcAudience };
  if (settings.cognito) return { kind: "cognito", clientId: settings.clientId };
  return { kind: "aud", value: settings.clientId };
}

export interface AuthSetup {
  resolvePrincipal: PrincipalResolver;
  routes: FastifyPluginAsyncZod;
  /** For @fastify/cookie: signs the session cookie. */
  cookieSecret: Buffer;
  settings: IssuerSettings;
}

/**
 * Everything sign-in needs, built once per app: the OIDC client of the configured issuer, the
 * session store, the principal resolver (session cookie, service token or access token) and
 * the /auth routes.
 */
export function createAuth(input: {
  app: FastifyInstance;
  config: Config;
  db: Db;
  secret: Buffer;
  log: FastifyBaseLogger;
  buildTokens: BuildTokens;
}): AuthSetup {
  const { app, config, db, secret } = input;
  const keys = authKeys(secret);
  const settings = issuerSettings(config, secret, app);
  const oidc = createOidcClient(settings);
  const cookies = cookieSettings(config.publicUrl);
  const identity = { kind: settings.kind, issuer: settings.issuer };
  const hosts = { publicOrigin: config.publicUrl, dhHosts: config.dataHarmonizationHosts };
  const sessions: SessionContext = {
    db: db.kysely,
    tokensKey: keys.sessionTokens,
    idleMs: config.sessionIdleMs,
    maxMs: config.sessionMaxMs,
    refresh: refresherFor(oidc),
    log: input.log,
  };
  const resolvePrincipal = createPrincipalResolver({
    db: db.kysely,
    serviceTokens: serviceTokenResolver(db.kysely, config.ingestToken, input.buildTokens),
    verifyJwt: createJwtVerifier(oidc, audienceRule(settings, config), settings.fetch),
    identity,
    sessions,
    cookies,
    hosts,
  });
  const routes = authRoutes({
    db: db.kysely,
    oidc,
    identity,
    sessions,
    cookies,
    loginKey: keys.loginState,
    publicOrigin: config.publicUrl,
    hosts,
    handoffs: { db: db.kysely, tokensKey: keys.handoffTokens },
  });
  return { resolvePrincipal, routes, cookieSecret: keys.cookie, settings };
}
