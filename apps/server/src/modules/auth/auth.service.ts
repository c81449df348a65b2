import type { FastifyBaseLogger } from "fastify";
import type { Kysely } from "kysely";
import * as client from "openid-client";
import type { Database } from "../../db/schema.js";
import { AppError } from "../../errors.js";
import { accountForSignIn, type IdentityClaims, type IssuerIdentity } from "./accounts.service.js";
import { openLoginState } from "./login-state.js";
import { issuerUnavailable, type OidcClient } from "./oidc-client.js";
import { RefreshRejected, type SessionContext, type SessionTokens } from "./sessions.service.js";

export interface SignInDeps {
  db: Kysely<Database>;
  oidc: OidcClient;
  identity: IssuerIdentity;
  sessions: SessionContext;
  loginKey: Buffer;
}

/** Network trouble or a provider error page: the sign-in may work when tried again later. */
const TRANSIENT_CODES = new Set(["OAUTH_TIMEOUT", "OAUTH_ABORT", "OAUTH_RESPONSE_IS_NOT_CONFORM"]);

function isTransient(error: unknown): boolean {
  return (
    error instanceof TypeError ||
    (error instanceof client.ClientError && TRANSIENT_CODES.has(error.code ?? ""))
  );
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

const failed = (message: string) => new AppError(401, "sign_in_failed", message);

/** The provider's answer turned into an AppError a person can act on; never a 500. */
function signInError(error: unknown, issuer: string): AppError {
  if (error instanceof client.AuthorizationResponseError) {
    const said = error.error_description ?? error.error;
    return failed(`The sign-in provider refused the sign-in: ${said}`);
  }
  if (error instanceof client.ResponseBodyError) {
    return failed(`The sign-in provider refused the sign-in code (${error.error}). Sign in again.`);
  }
  if (isTransient(error)) return issuerUnavailable(issuer);
  return failed(
    "The answer from the sign-in provider does not belong to this sign-in (its state, nonce or issuer differs). Sign in again.",
  );
}

function tokensOf(response: client.TokenEndpointResponse): SessionTokens {
  return {
    access_token: response.access_token,
    refresh_token: response.refresh_token,
    id_token: response.id_token,
    expires_at:
      typeof response.expires_in === "number" ? Date.now() + response.expires_in * 1000 : undefined,
  };
}

/** The ID token's claims, completed from userinfo when an external provider leaves email out. */
async function claimsOf(
  deps: SignInDeps,
  configuration: client.Configuration,
  response: client.TokenEndpointResponse & client.TokenEndpointResponseHelpers,
  log: FastifyBaseLogger,
): Promise<IdentityClaims> {
  const idClaims = response.claims();
  if (!idClaims) throw failed("The sign-in provider sent no ID token. Sign in again.");
  const claims: IdentityClaims = { ...idClaims, sub: idClaims.sub };
  if (deps.identity.kind === "embedded" || claims.email !== undefined) return claims;
  if (!configuration.serverMetadata().userinfo_endpoint) return claims;
  try {
    const info = await client.fetchUserInfo(configuration, response.access_token, claims.sub);
    return { ...info, ...claims, email: info.email, email_verified: info.email_verified };
  } catch (error) {
    log.warn({ reason: messageOf(error) }, "userinfo lookup failed at sign-in");
    return claims;
  }
}

/**
 * Finishes the authorization-code flow: the state cookie must be this browser's, then
 * openid-client checks iss (RFC 9207), state, PKCE and the ID token's nonce. Returns who signed
 * in, the provider's tokens and the sign-in state (where to go, and whether a data-harmonization
 * host asked); the caller starts the session. Throws an AppError (401, 403 or 503) otherwise.
 */
export async function completeSignIn(
  deps: SignInDeps,
  input: { loginCookie: string | undefined; currentUrl: URL; log: FastifyBaseLogger },
) {
  const state = input.loginCookie ? openLoginState(deps.loginKey, input.loginCookie) : undefined;
  const { settings } = deps.oidc;
  if (!state || state.issuer !== settings.issuer) {
    throw new AppError(
      400,
      "sign_in_expired",
      "This sign-in has expired or was started in another browser or tab. Sign in again.",
    );
  }
  const configuration = await deps.oidc.configuration();
  let response: client.TokenEndpointResponse & client.TokenEndpointResponseHelpers;
  try {
    response = await client.authorizationCodeGrant(
      configuration,
      input.currentUrl,
      {
        pkceCodeVerifier: state.verifier,
        expectedState: state.state,
        expectedNonce: state.nonce,
        idTokenExpected: true,
      },
      settings.resource ? { resource: settings.resource } : undefined,
    );
  } catch (error) {
    const appError = signInError(error, settings.issuer);
    // The message only: the error's cause holds the callback's parameters (code, state).
    input.log.warn({ code: appError.code, reason: messageOf(error) }, "sign-in callback refused");
    throw appError;
  }
  const claims = await claimsOf(deps, configuration, response, input.log);
  const account = await accountForSignIn(deps.db, deps.identity, claims);
  input.log.info({ userId: account.id }, "signed in");
  return { userId: account.id, tokens: tokensOf(response), state };
}

/** The provider's refresh for sessions.service; a refusal (invalid_grant) ends the session. */
export function refresherFor(oidc: OidcClient) {
  return async (refreshToken: string): Promise<SessionTokens> => {
    const configuration = await oidc.configuration();
    const resource = oidc.settings.resource;
    try {
      const response = await client.refreshTokenGrant(
        configuration,
        refreshToken,
        resource ? { resource } : undefined,
      );
      return tokensOf(response);
    } catch (error) {
      if (error instanceof client.ResponseBodyError) throw new RefreshRejected(error.error);
      throw error;
    }
  };
}

/** Revokes a session's refresh token where the provider supports it; a failure is logged. */
async function revokeRefreshToken(
  configuration: client.Configuration,
  tokens: SessionTokens | undefined,
  log: FastifyBaseLogger,
): Promise<void> {
  if (!tokens?.refresh_token || !configuration.serverMetadata().revocation_endpoint) return;
  await client
    .tokenRevocation(configuration, tokens.refresh_token, { token_type_hint: "refresh_token" })
    .catch((error: unknown) =>
      log.warn({ reason: messageOf(error) }, "refresh token revocation failed"),
    );
}

/**
 * A data-harmonization host's sign-out: its refresh token is revoked, the provider's own sign-in
 * stays (its logout would land on the public address, not back on this host's page).
 */
export async function revokeSessionTokens(
  deps: { oidc: OidcClient },
  tokens: SessionTokens | undefined,
  log: FastifyBaseLogger,
): Promise<void> {
  const configuration = await deps.oidc.configuration().catch(() => undefined);
  if (configuration) await revokeRefreshToken(configuration, tokens, log);
}

/**
 * Where the browser goes after its session here ended: the provider's logout (RP-initiated
 * logout with id_token_hint, or Cognito's logout_uri form), or Assay's home page when the
 * provider offers none or cannot be reached. The refresh token is revoked where supported.
 */
export async function signOutUrl(
  deps: { oidc: OidcClient },
  tokens: SessionTokens | undefined,
  log: FastifyBaseLogger,
): Promise<string> {
  let configuration: client.Configuration;
  try {
    configuration = await deps.oidc.configuration();
  } catch {
    return "/";
  }
  const metadata = configuration.serverMetadata();
  const { settings } = deps.oidc;
  await revokeRefreshToken(configuration, tokens, log);
  if (!metadata.end_session_endpoint) return "/";
  if (settings.cognito) {
    const url = new URL(metadata.end_session_endpoint);
    url.searchParams.set("client_id", settings.clientId);
    url.searchParams.set("logout_uri", settings.postLogoutRedirectUri);
    return url.href;
  }
  const parameters: Record<string, string> = {
    client_id: settings.clientId,
    post_logout_redirect_uri: settings.postLogoutRedirectUri,
  };
  if (tokens?.id_token) parameters.id_token_hint = tokens.id_token;
  return client.buildEndSessionUrl(configuration, parameters).href;
}
