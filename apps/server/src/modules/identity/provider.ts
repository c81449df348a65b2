import type { JWK } from "jose";
import type { Kysely } from "kysely";
import Provider, {
  errors,
  type Account,
  type ErrorOut,
  type KoaContextWithOIDC,
} from "oidc-provider";
import type { FastifyBaseLogger } from "fastify";
import type { Config } from "../../config.js";
import type { Database } from "../../db/schema.js";
import { deriveKey } from "../../secret-key.js";
import { findById } from "../users/users.service.js";
import { postgresAdapter } from "./adapter.js";
import { ADMIN_SCOPE, loadFirstPartyGrant, SCOPES } from "./grants.js";
import { ACCESS_TOKEN_ALG, ID_TOKEN_ALG } from "./keys.js";
import { renderLogoutPage, renderMessagePage } from "./login-page.js";

/** The provider and its request handler, made once the signing keys are loaded. */
export interface LoadedProvider {
  provider: Provider;
  handle: ReturnType<Provider["callback"]>;
  signingKeys: JWK[];
}

export { ADMIN_SCOPE, SCOPES };

/** Where the provider is mounted; its issuer is `${ASSAY_PUBLIC_URL}/oidc`. */
export const OIDC_PATH = "/oidc";
/** The client Assay's own server signs in with. */
export const EMBEDDED_CLIENT_ID = "assay-web";

const HOUR = 60 * 60;
const DAY = 24 * HOUR;
/**
 * Lifetimes in seconds. Access tokens are JWTs that cannot be revoked, so they are short; a
 * refresh token never outlives the first one of its grant (rotation does not extend it).
 */
export const TTL = {
  AccessToken: 10 * 60,
  AuthorizationCode: 60,
  IdToken: HOUR,
  Interaction: HOUR,
  Session: 7 * DAY,
  Grant: 7 * DAY,
  RefreshToken: 7 * DAY,
} as const;

export interface EmbeddedClientSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
}

/** What Assay's server needs to sign in at the embedded provider as its confidential client. */
export function embeddedClientSettings(
  config: Pick<Config, "publicUrl">,
  secret: Buffer,
): EmbeddedClientSettings {
  return {
    issuer: `${config.publicUrl}${OIDC_PATH}`,
    clientId: EMBEDDED_CLIENT_ID,
    clientSecret: deriveKey(secret, "oidc-client-secret").toString("base64url"),
  };
}

/** The audience of access tokens: the Assay API. */
export const apiResourceOf = (config: Pick<Config, "publicUrl">) => `${config.publicUrl}/v1`;

export interface ProviderDeps {
  config: Config;
  db: Kysely<Database>;
  secret: Buffer;
  signingKeys: JWK[];
  log: FastifyBaseLogger;
}

/** The account behind a `sub`, with its claims; none for unknown or disabled users. */
async function findAccount(
  db: Kysely<Database>,
  publicUrl: string,
  sub: string,
): Promise<Account | undefined> {
  if (!/^\d{1,10}$/.test(sub)) return undefined;
  const user = await findById(db, Number(sub));
  if (!user || user.disabled_at) return undefined;
  return {
    accountId: sub,
    claims: () => ({
      sub,
      email: user.email,
      // An admin typed the address; nobody proved they read mail there.
      email_verified: false,
      name: user.name,
      // Stored pictures are paths on Assay; claims carry absolute URLs.
      picture: user.picture ? new URL(user.picture, publicUrl).href : undefined,
      assay_admin: user.is_admin,
    }),
  };
}

/**
 * The embedded OpenID provider with production settings: no development login (it accepts any
 * password), Assay's own login pages, state in PostgreSQL, signing keys from the database,
 * cookies signed with a key derived from ASSAY_SECRET_KEY, PKCE S256 required, JWT access
 * tokens for the API.
 */
export function createProvider(deps: ProviderDeps): Provider {
  const { config, db, secret } = deps;
  const client = embeddedClientSettings(config, secret);
  const apiResource = apiResourceOf(config);
  const homeUrl = `${config.publicUrl}/`;

  const provider = new Provider(client.issuer, {
    adapter: postgresAdapter(db),
    clients: [
      {
        client_id: client.clientId,
        client_secret: client.clientSecret,
        client_name: "Assay",
        redirect_uris: [`${config.publicUrl}/auth/callback`],
        post_logout_redirect_uris: [homeUrl],
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_basic",
        id_token_signed_response_alg: ID_TOKEN_ALG,
      },
    ],
    clientAuthMethods: ["client_secret_basic", "client_secret_post"],
    responseTypes: ["code"],
    pkce: { methods: ["S256"], required: () => true },
    jwks: { keys: deps.signingKeys },
    cookies: {
      keys: [deriveKey(secret, "oidc-cookies").toString("base64url")],
      names: {
        session: "assay_op_session",
        interaction: "assay_op_interaction",
        resume: "assay_op_resume",
      },
      // Lax everywhere: Assay and its provider share one site, and Chromium drops
      // SameSite=None cookies that are not Secure (a plain-http local install).
      long: { httpOnly: true, sameSite: "lax", signed: true },
      short: { httpOnly: true, sameSite: "lax", signed: true },
    },
    scopes: SCOPES,
    claims: {
      openid: ["sub"],
      email: ["email", "email_verified"],
      phone: ["phone_number"],
      profile: ["name", "picture"],
      [ADMIN_SCOPE]: ["assay_admin"],
    },
    // The ID token carries the scope claims, so the client needs no extra userinfo call.
    conformIdTokenClaims: false,
    findAccount: (_ctx: KoaContextWithOIDC, sub: string) => findAccount(db, config.publicUrl, sub),
    loadExistingGrant: loadFirstPartyGrant(db, apiResource),
    // Refresh tokens without offline_access: they end with the user's session at the provider.
    issueRefreshToken: (_ctx: unknown, c: { grantTypeAllowed(t: string): boolean }) =>
      c.grantTypeAllowed("refresh_token"),
    features: {
      devInteractions: { enabled: false },
      revocation: { enabled: true },
      userinfo: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => apiResource,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: unknown, indicator: string) => {
          if (indicator !== apiResource) throw new errors.InvalidTarget();
          return {
            scope: ADMIN_SCOPE,
            audience: apiResource,
            accessTokenTTL: TTL.AccessToken,
            accessTokenFormat: "jwt",
            jwt: { sign: { alg: ACCESS_TOKEN_ALG } },
          };
        },
      },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: (ctx: KoaContextWithOIDC, form: string) => {
          ctx.type = "html";
          ctx.body = renderLogoutPage({
            form,
            // Assay's own sign-out proved itself with an ID token: no second question.
            autoSubmit: Boolean(ctx.oidc.params.id_token_hint) && ctx.oidc.client !== undefined,
            homeUrl,
          });
        },
        postLogoutSuccessSource: (ctx: KoaContextWithOIDC) => {
          ctx.type = "html";
          ctx.body = renderMessagePage({
            title: "Signed out",
            message: "You are signed out of Assay.",
            kind: "info",
            homeUrl,
          });
        },
      },
    },
    interactions: {
      url: (_ctx: unknown, interaction: { uid: string }) =>
        `${OIDC_PATH}/interaction/${interaction.uid}`,
    },
    renderError: (ctx: KoaContextWithOIDC, out: ErrorOut) => {
      ctx.type = "html";
      ctx.body = renderMessagePage({
        title: "Sign-in problem",
        message: `Sign-in could not continue: ${out.error_description ?? out.error}. Go back to Assay and try again.`,
        homeUrl,
      });
    },
    // Only Assay's server talks to the token endpoint; browsers never call it cross-origin.
    clientBasedCORS: () => false,
    ttl: {
      ...TTL,
      RefreshToken: (ctx: {
        oidc?: { entities: { RotatedRefreshToken?: { remainingTTL: number } } };
      }) => ctx?.oidc?.entities.RotatedRefreshToken?.remainingTTL ?? TTL.RefreshToken,
    },
  });
  // Requests reach the provider with X-Forwarded-* set from ASSAY_PUBLIC_URL (see mount.ts).
  provider.proxy = true;
  provider.on("server_error", (_ctx: unknown, error: unknown) => {
    deps.log.error({ err: error }, "identity provider error");
  });
  return provider;
}
