import { InteractionParamsSchema, SignInFormSchema } from "@assay/core";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { Kysely } from "kysely";
import type { Interaction } from "oidc-provider";
import type { Database } from "../../db/schema.js";
import { SIGN_IN_WINDOW_SECONDS, signIn } from "../users/sign-in.service.js";
import { firstPartyGrantId } from "./grants.js";
import { renderLoginPage, renderMessagePage } from "./login-page.js";
import type { LoadedProvider } from "./provider.js";
import { asPublicRequest } from "./mount.js";
import { OIDC_PATH } from "./provider.js";

export const WRONG_CREDENTIALS = "Wrong email or password.";
export const TOO_MANY_ATTEMPTS =
  "Too many sign-in attempts. Wait 15 minutes, or ask an admin to reset your password with `npx assay users reset-password`.";
/** An account failed from many places is slowed down, never locked (anyone could lock it). */
export const slowedDown = (seconds: number) =>
  `Too many failed sign-ins for this account. Wait ${seconds} s and try again.`;
export const ACCOUNT_DISABLED =
  "This account is disabled. Ask an Assay admin if you should still have access.";
const MISSING_FIELDS = "Enter your email and password.";
const EXPIRED =
  "This sign-in page has expired or was opened in another browser. Go back to Assay and sign in again.";

export interface InteractionDeps {
  load: () => Promise<LoadedProvider>;
  db: Kysely<Database>;
  publicUrl: URL;
  apiResource: string;
}

/**
 * The provider's interactions, Assay's own instead of the library's development ones: the
 * login form, its check with the attempt limit, and consent, which Assay's own client never
 * asks the user for.
 */
export const interactionRoutes =
  (deps: InteractionDeps): FastifyPluginAsyncZod =>
  async (app) => {
    const { publicUrl } = deps;
    const homeUrl = `${publicUrl.origin}/`;

    // The form posts application/x-www-form-urlencoded; only these routes accept it.
    app.addContentTypeParser(
      "application/x-www-form-urlencoded",
      { parseAs: "string", bodyLimit: 16 * 1024 },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    );

    const sendPage = (reply: FastifyReply, status: number, html: string) =>
      reply
        .status(status)
        .header("cache-control", "no-store")
        .type("text/html; charset=utf-8")
        .send(html);

    /** The interaction this browser is in, or undefined after answering with "expired". */
    async function interactionOf(
      request: FastifyRequest,
      reply: FastifyReply,
      uid: string,
    ): Promise<Interaction | undefined> {
      const { provider } = await deps.load();
      try {
        const details = await provider.interactionDetails(
          asPublicRequest(request, publicUrl),
          reply.raw,
        );
        if (details.uid === uid) return details;
      } catch (error) {
        if ((error as { name?: string }).name !== "SessionNotFound") throw error;
      }
      await sendPage(
        reply,
        400,
        renderMessagePage({ title: "Sign-in expired", message: EXPIRED, homeUrl }),
      );
      return undefined;
    }

    /** Tells the provider the outcome, and sends the browser back into the flow. */
    async function finish(request: FastifyRequest, reply: FastifyReply, result: object) {
      const { provider } = await deps.load();
      const returnTo = await provider.interactionResult(
        asPublicRequest(request, publicUrl),
        reply.raw,
        result as Record<string, unknown>,
        { mergeWithLastSubmission: false },
      );
      return reply.redirect(returnTo, 303);
    }

    async function consent(request: FastifyRequest, reply: FastifyReply, details: Interaction) {
      const { provider } = await deps.load();
      const grantId = await firstPartyGrantId(provider, deps.db, deps.apiResource, details);
      return finish(request, reply, { consent: { grantId } });
    }

    const loginPage = (uid: string, email: string | undefined, error?: string) =>
      renderLoginPage({ uid, email, error, homeUrl });

    app.get(
      `${OIDC_PATH}/interaction/:uid`,
      { config: { access: "open" }, schema: { hide: true, params: InteractionParamsSchema } },
      async (request, reply) => {
        const { uid } = request.params;
        const details = await interactionOf(request, reply, uid);
        if (!details) return reply;
        if (details.prompt.name === "consent") return consent(request, reply, details);
        const hint = details.params.login_hint;
        return sendPage(reply, 200, loginPage(uid, typeof hint === "string" ? hint : undefined));
      },
    );

    app.post(
      `${OIDC_PATH}/interaction/:uid`,
      {
        config: { access: "open" },
        schema: { hide: true, params: InteractionParamsSchema, body: SignInFormSchema },
      },
      async (request, reply) => {
        const { uid } = request.params;
        const { email, password } = request.body;
        const details = await interactionOf(request, reply, uid);
        if (!details) return reply;
        if (details.prompt.name === "consent") return consent(request, reply, details);
        if (!email.trim() || !password) {
          return sendPage(reply, 400, loginPage(uid, email, MISSING_FIELDS));
        }
        const outcome = await signIn(deps.db, { email, password, ip: request.ip });
        if (outcome.kind === "ok") {
          request.log.info({ userId: outcome.user.id }, "signed in at the embedded provider");
          return finish(request, reply, {
            login: { accountId: String(outcome.user.id), amr: ["pwd"] },
          });
        }
        // The reason, never the email or password typed (a password typed as the email...).
        request.log.info({ outcome: outcome.kind }, "sign-in refused");
        if (outcome.kind === "slowed") {
          reply.header("retry-after", String(outcome.retryAfterSeconds));
          return sendPage(reply, 429, loginPage(uid, email, slowedDown(outcome.retryAfterSeconds)));
        }
        if (outcome.kind === "limited") {
          reply.header("retry-after", String(SIGN_IN_WINDOW_SECONDS));
          return sendPage(reply, 429, loginPage(uid, email, TOO_MANY_ATTEMPTS));
        }
        if (outcome.kind === "disabled") {
          return sendPage(reply, 403, loginPage(uid, email, ACCOUNT_DISABLED));
        }
        return sendPage(reply, 401, loginPage(uid, email, WRONG_CREDENTIALS));
      },
    );
  };
