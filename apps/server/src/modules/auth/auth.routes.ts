import {
  CallbackQuerySchema,
  LoginQuerySchema,
  LogoutBodySchema,
  LogoutResponseSchema,
} from "@assay/core";
import type { FastifyReply } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { Kysely } from "kysely";
import * as client from "openid-client";
import { z } from "zod";
import type { Database } from "../../db/schema.js";
import { AppError } from "../../errors.js";
import type { IssuerIdentity } from "./accounts.service.js";
import { sendAuthProblem } from "./auth-page.js";
import { completeSignIn, revokeSessionTokens, signOutUrl } from "./auth.service.js";
import { handoffOfLogin, isDhHost, ownOrigin, type HandoffHosts } from "./handoff/handoff-hosts.js";
import { handoffRoutes, sendToHost, startAtDhHost } from "./handoff/handoff.routes.js";
import { issueHandoff, type HandoffContext } from "./handoff/handoff.service.js";
import { sameSecret } from "./principal.js";
import { signInRedirect } from "./access.js";
import {
  addressOf,
  LOGIN_STATE_TTL_MS,
  returnToOfState,
  safeReturnTo,
  sealLoginState,
  stateWithReturnTo,
} from "./login-state.js";
import type { OidcClient } from "./oidc-client.js";
import {
  clearLoginCookie,
  clearSessionCookie,
  setLoginCookie,
  setSessionCookie,
  sessionIdOf,
  type CookieSettings,
} from "./session-cookie.js";
import {
  createSession,
  endSession,
  sessionCsrfToken,
  type SessionContext,
} from "./sessions.service.js";

export interface AuthRouteDeps {
  db: Kysely<Database>;
  oidc: OidcClient;
  identity: IssuerIdentity;
  sessions: SessionContext;
  cookies: CookieSettings;
  /** AES-256-GCM key of the sign-in state cookie. */
  loginKey: Buffer;
  publicOrigin: string;
  /** ASSAY_PUBLIC_URL and the data-harmonization hosts sign-in may return to. */
  hosts: HandoffHosts;
  handoffs: HandoffContext;
}

const HtmlPage = z.string().describe("An HTML page saying what went wrong and how to go on");

function problemPage(
  reply: FastifyReply,
  error: unknown,
  title: string,
  returnTo: string,
): FastifyReply {
  if (error instanceof AppError) {
    return sendAuthProblem(reply, error.statusCode, title, error.message, signInRedirect(returnTo));
  }
  throw error;
}

/**
 * Server-side sign-in (backend for frontend): /auth/login starts the authorization-code flow
 * with PKCE, /auth/callback finishes it and starts a session, /auth/logout ends the session here
 * and at the provider. The browser gets only an httpOnly cookie; the tokens stay on the server.
 */
export const authRoutes =
  (deps: AuthRouteDeps): FastifyPluginAsyncZod =>
  async (app) => {
    // Sign-out may come from a plain HTML form; the body is one small field.
    app.addContentTypeParser(
      "application/x-www-form-urlencoded",
      { parseAs: "string", bodyLimit: 4096 },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    );
    await app.register(handoffRoutes(deps));

    app.get(
      "/auth/login",
      {
        config: { access: "open" },
        schema: {
          tags: ["auth"],
          summary: "Start signing in: redirects to the identity provider",
          querystring: LoginQuerySchema,
          response: { 400: HtmlPage, 503: HtmlPage },
        },
      },
      async (request, reply) => {
        const returnTo = safeReturnTo(request.query.return_to, deps.publicOrigin);
        // A data-harmonization host signs in at the public address and gets a one-time code back.
        if (isDhHost(deps.hosts, request.hostname)) {
          return startAtDhHost(reply, deps, request.hostname, returnTo);
        }
        const asked = handoffOfLogin(deps.hosts, request.query);
        if ("refused" in asked) {
          return sendAuthProblem(reply, 400, "Sign-in refused", asked.refused, "/");
        }
        // The state cookie and the provider's redirect belong to ASSAY_PUBLIC_URL: a browser
        // that opened Assay at another address starts there, or its cookie never comes back.
        const address = addressOf(request.host, deps.publicOrigin);
        if (address !== "public" && request.query.at_public_url === undefined) {
          const atPublicUrl = `${deps.publicOrigin}${signInRedirect(returnTo)}&at_public_url=1`;
          if (address === "public-unreachable") {
            const here = `${request.protocol}://${request.host}`;
            return sendAuthProblem(
              reply,
              400,
              "Sign-in needs Assay's public address",
              `Sign-in returns to ${deps.publicOrigin} (ASSAY_PUBLIC_URL), which names the server's ` +
                `own machine, so it works only in a browser on that machine. To sign in at ${here}, ` +
                `start Assay with ASSAY_PUBLIC_URL=${here} (the address people open).`,
              atPublicUrl,
            );
          }
          return reply.header("cache-control", "no-store").redirect(atPublicUrl, 302);
        }
        let configuration: client.Configuration;
        try {
          configuration = await deps.oidc.configuration();
        } catch (error) {
          request.log.warn({ err: error }, "sign-in provider unreachable");
          return problemPage(reply, error, "Sign-in is unavailable", returnTo);
        }
        const { settings } = deps.oidc;
        const verifier = client.randomPKCECodeVerifier();
        const state = {
          state: stateWithReturnTo(client.randomState(), returnTo),
          nonce: client.randomNonce(),
          verifier,
          issuer: settings.issuer,
          returnTo,
          ...asked,
          expiresAt: Date.now() + LOGIN_STATE_TTL_MS,
        };
        const parameters: Record<string, string> = {
          redirect_uri: settings.redirectUri,
          scope: settings.scopes,
          state: state.state,
          nonce: state.nonce,
          code_challenge: await client.calculatePKCECodeChallenge(verifier),
          code_challenge_method: "S256",
        };
        if (settings.resource) parameters.resource = settings.resource;
        const target = client.buildAuthorizationUrl(configuration, parameters);
        setLoginCookie(
          reply,
          deps.cookies,
          sealLoginState(deps.loginKey, state),
          LOGIN_STATE_TTL_MS / 1000,
        );
        return reply.header("cache-control", "no-store").redirect(target.href, 302);
      },
    );

    app.get(
      "/auth/callback",
      {
        config: { access: "open" },
        schema: {
          tags: ["auth"],
          summary: "Where the identity provider returns: checks the answer, starts a session",
          querystring: CallbackQuerySchema,
          response: { 200: HtmlPage, 400: HtmlPage, 401: HtmlPage, 403: HtmlPage, 503: HtmlPage },
        },
      },
      async (request, reply) => {
        const loginCookie = request.cookies[deps.cookies.login];
        clearLoginCookie(reply, deps.cookies);
        let result: Awaited<ReturnType<typeof completeSignIn>>;
        try {
          result = await completeSignIn(deps, {
            loginCookie,
            currentUrl: new URL(request.url, deps.publicOrigin),
            log: request.log,
          });
        } catch (error) {
          const returnTo = returnToOfState(request.query.state, deps.publicOrigin);
          return problemPage(reply, error, "Sign-in failed", returnTo);
        }
        const { handoff, returnTo } = result.state;
        if (handoff) {
          // Signed in for a data-harmonization host: no session here, a code for that host.
          const code = await issueHandoff(deps.handoffs, {
            host: handoff.host,
            browserHash: Buffer.from(handoff.browserHash, "base64url"),
            userId: result.userId,
            tokens: result.tokens,
            returnTo,
          });
          return sendToHost(reply, deps.hosts, handoff.host, code);
        }
        // A new id at every sign-in: a session id planted before sign-in is worth nothing after.
        const previous = sessionIdOf(request, deps.cookies);
        if (previous) await endSession(deps.sessions, previous);
        const session = await createSession(deps.sessions, result.userId, result.tokens);
        setSessionCookie(reply, deps.cookies, session.id, session.expiresAt);
        return reply.header("cache-control", "no-store").redirect(returnTo, 302);
      },
    );

    app.post(
      "/auth/logout",
      {
        config: { access: "open" },
        schema: {
          tags: ["auth"],
          summary: "Sign out here and at the identity provider",
          description:
            "Needs the session's CSRF token (x-csrf-token header or csrf_token form field) and " +
            "Assay's own Origin. A script asking for JSON gets where to go next; a form is " +
            "redirected there.",
          body: LogoutBodySchema,
          response: { 200: LogoutResponseSchema, 403: HtmlPage },
        },
      },
      async (request, reply) => {
        const id = sessionIdOf(request, deps.cookies);
        const wantsJson = (request.headers.accept ?? "").includes("application/json");
        const finish = (to: string) =>
          wantsJson ? reply.send({ redirect_to: to }) : reply.redirect(to, 303);
        const csrfToken = id ? await sessionCsrfToken(deps.sessions, id) : undefined;
        if (!id || !csrfToken) {
          clearSessionCookie(reply, deps.cookies);
          return finish("/");
        }
        const sent = request.body?.csrf_token ?? request.headers["x-csrf-token"];
        const tokenOk = typeof sent === "string" && sameSecret(sent, csrfToken);
        if (request.headers.origin !== ownOrigin(deps.hosts, request) || !tokenOk) {
          return sendAuthProblem(
            reply,
            403,
            "Sign-out refused",
            "The sign-out did not come from Assay's own page. Use the Sign out item of Assay's menu.",
            signInRedirect("/"),
          );
        }
        const tokens = await endSession(deps.sessions, id);
        clearSessionCookie(reply, deps.cookies);
        request.log.info("signed out");
        // A data-harmonization host ends its own session and stays on its page; the provider's
        // logout would land on the public address instead.
        if (isDhHost(deps.hosts, request.hostname)) {
          await revokeSessionTokens(deps, tokens, request.log);
          return finish("/");
        }
        return finish(await signOutUrl(deps, tokens, request.log));
      },
    );
  };
