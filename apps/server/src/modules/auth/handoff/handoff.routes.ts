import { HandoffQuerySchema } from "@assay/core";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { AppError } from "../../../errors.js";
import { signInRedirect } from "../access.js";
import { escapeHtml, sendAuthProblem } from "../auth-page.js";
import { LOGIN_STATE_TTL_MS, safeReturnTo } from "../login-state.js";
import {
  setHandoffCookie,
  setSessionCookie,
  sessionIdOf,
  type CookieSettings,
} from "../session-cookie.js";
import { createSession, endSession, type SessionContext } from "../sessions.service.js";
import { dhOrigin, isDhHost, type HandoffHosts } from "./handoff-hosts.js";
import { browserNonce, redeemHandoff, type HandoffContext } from "./handoff.service.js";

export interface HandoffRouteDeps {
  hosts: HandoffHosts;
  handoffs: HandoffContext;
  sessions: SessionContext;
  cookies: CookieSettings;
}

/**
 * Sign in at a data-harmonization host, step 1 (its /auth/login): a nonce in a cookie of this
 * host only, then on to the public address's sign-in with this host and the nonce's hash. The
 * code made there works only in a browser holding the nonce, so a code planted by someone else
 * (login CSRF) signs nobody in.
 */
export function startAtDhHost(
  reply: FastifyReply,
  deps: Pick<HandoffRouteDeps, "hosts" | "cookies">,
  host: string,
  returnTo: string,
): FastifyReply {
  const { nonce, hash } = browserNonce();
  setHandoffCookie(reply, deps.cookies, nonce, LOGIN_STATE_TTL_MS / 1000);
  const query = new URLSearchParams({
    return_to: returnTo,
    return_host: host.toLowerCase(),
    handoff: hash,
    at_public_url: "1",
  });
  const target = `${deps.hosts.publicOrigin}/auth/login?${query.toString()}`;
  return reply.header("cache-control", "no-store").redirect(target, 302);
}

/**
 * The public address's callback sends the browser on to the host with a fresh code by a page,
 * not a redirect: the provider's login form sits at the end of the redirect chain, and its CSP
 * (form-action 'self') would stop a chain that leaves the public address. The page is not kept
 * (no-store) and sends no Referer with the code.
 */
export function sendToHost(
  reply: FastifyReply,
  hosts: HandoffHosts,
  host: string,
  code: string,
): FastifyReply {
  const url = escapeHtml(`${dhOrigin(hosts, host)}/auth/handoff?code=${encodeURIComponent(code)}`);
  const body = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=${url}">
<title>Signing in · Assay</title></head>
<body style="font:14px sans-serif;margin:72px auto;max-width:360px">
<p>Signed in. Going back to <a href="${url}">${escapeHtml(host)}</a>…</p></body></html>`;
  return reply
    .header("cache-control", "no-store")
    .header("referrer-policy", "no-referrer")
    .type("text/html; charset=utf-8")
    .send(body);
}

const HtmlPage = z.string().describe("An HTML page saying what went wrong and how to go on");

/** Step 2, at the data-harmonization host: the code for a session of this host's own. */
export const handoffRoutes =
  (deps: HandoffRouteDeps): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      "/auth/handoff",
      {
        config: { access: "open" },
        schema: {
          tags: ["auth"],
          summary: "Finish signing in at a data-harmonization host with a one-time code",
          description:
            "The code is made by ASSAY_PUBLIC_URL's sign-in for this host and this browser; it " +
            "is good once, for 60 seconds. Any refusal is a page saying why.",
          querystring: HandoffQuerySchema,
          response: { 400: HtmlPage, 403: HtmlPage },
        },
      },
      async (request, reply) => {
        const nonce = request.cookies[deps.cookies.handoff];
        setHandoffCookie(reply, deps.cookies, undefined);
        if (!isDhHost(deps.hosts, request.hostname)) {
          return sendAuthProblem(
            reply,
            400,
            "Sign-in failed",
            "This address is not one of Assay's data-harmonization hosts, so it does not take sign-in links. Sign in again.",
            signInRedirect("/"),
          );
        }
        let signedIn: Awaited<ReturnType<typeof redeemHandoff>>;
        try {
          signedIn = await redeemHandoff(deps.handoffs, {
            code: request.query.code,
            host: request.hostname,
            browserNonce: nonce,
          });
        } catch (error) {
          if (!(error instanceof AppError)) throw error;
          request.log.warn({ code: error.code }, "sign-in code refused");
          return sendAuthProblem(
            reply,
            error.statusCode,
            "Sign-in failed",
            error.message,
            signInRedirect("/"),
          );
        }
        return finishSignIn(request, reply, deps, signedIn);
      },
    );
  };

async function finishSignIn(
  request: FastifyRequest,
  reply: FastifyReply,
  deps: HandoffRouteDeps,
  signedIn: Awaited<ReturnType<typeof redeemHandoff>>,
): Promise<FastifyReply> {
  // A new id here too: a session id planted on this host before sign-in is worth nothing after.
  const previous = sessionIdOf(request, deps.cookies);
  if (previous) await endSession(deps.sessions, previous);
  const session = await createSession(deps.sessions, signedIn.userId, signedIn.tokens);
  // No Domain attribute: the cookie is this host's alone (and __Host- over https insists).
  setSessionCookie(reply, deps.cookies, session.id, session.expiresAt);
  request.log.info({ userId: signedIn.userId }, "signed in at a data-harmonization host");
  const returnTo = safeReturnTo(signedIn.returnTo, dhOrigin(deps.hosts, request.hostname));
  return reply.header("cache-control", "no-store").redirect(returnTo, 302);
}
