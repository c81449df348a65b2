import * as client from "openid-client";
import { AppError } from "../../errors.js";
import type { FetchLike } from "./in-process-fetch.js";

/**
 * Assay as a confidential OpenID Connect client (openid-client, OpenID Certified) of one issuer:
 * the embedded provider at /oidc, or any external one (Cognito, Keycloak, Entra ID, Okta).
 * Discovery is lazy and cached, so a provider that is down does not stop the server: sign-in
 * answers 503 until it is back.
 */

export interface IssuerSettings {
  /** embedded: Assay's own provider (users in Assay's database); external: OIDC_ISSUER. */
  kind: "embedded" | "external";
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Space-separated scopes of the authorization request. */
  scopes: string;
  redirectUri: string;
  postLogoutRedirectUri: string;
  /** RFC 8707 resource asked for (embedded: `${publicUrl}/v1`), so access tokens are JWTs for the API. */
  resource: string | undefined;
  /** Cognito's logout wants client_id + logout_uri, and its access tokens carry client_id, no aud. */
  cognito: boolean;
  /** Requests to the issuer (discovery, token, JWKS); the embedded provider is called in-process. */
  fetch: FetchLike | undefined;
}

/** A discovery that failed is retried after this long, so a down provider is not hammered. */
const RETRY_AFTER_MS = 5_000;
/** Seconds for each call to the provider (discovery, token, userinfo). */
const TIMEOUT_S = 5;

/** Cognito user pools: https://cognito-idp.<region>.amazonaws.com/<pool id>. */
export function isCognitoIssuer(issuer: string): boolean {
  try {
    return /^cognito-idp\.[a-z0-9-]+\.amazonaws\.com(\.cn)?$/.test(new URL(issuer).hostname);
  } catch {
    return false;
  }
}

function isLoopback(hostname: string): boolean {
  return hostname === "localhost" || hostname === "127.0.0.1" || hostname === "[::1]";
}

/** The provider could not be reached or answered nonsense: the caller can only wait. */
export function issuerUnavailable(issuer: string): AppError {
  return new AppError(
    503,
    "identity_provider_unavailable",
    `The sign-in provider (${issuer}) cannot be reached. Try again in a minute; if it persists, ask an administrator to check OIDC_ISSUER.`,
  );
}

export interface OidcClient {
  settings: IssuerSettings;
  /** The discovered configuration; throws a 503 AppError while the provider is unreachable. */
  configuration(): Promise<client.Configuration>;
}

/** An OIDC client whose discovery happens on first use and is then kept for the process. */
export function createOidcClient(settings: IssuerSettings): OidcClient {
  let cached: client.Configuration | undefined;
  let pending: Promise<client.Configuration> | undefined;
  let failedAt = 0;

  const discover = async (): Promise<client.Configuration> => {
    const url = new URL(settings.issuer);
    // http is for the embedded provider on a plain-http install and for loopback test issuers.
    const insecure =
      url.protocol === "http:" && (settings.kind === "embedded" || isLoopback(url.hostname));
    const options: client.DiscoveryRequestOptions = {
      timeout: TIMEOUT_S,
      execute: insecure ? [client.allowInsecureRequests] : [],
    };
    if (settings.fetch) options[client.customFetch] = settings.fetch;
    return client.discovery(
      url,
      settings.clientId,
      { redirect_uris: [settings.redirectUri], response_types: ["code"] },
      client.ClientSecretBasic(settings.clientSecret),
      options,
    );
  };

  return {
    settings,
    configuration: async () => {
      if (cached) return cached;
      if (Date.now() - failedAt < RETRY_AFTER_MS) throw issuerUnavailable(settings.issuer);
      pending ??= discover()
        .then((configuration) => {
          cached = configuration;
          return configuration;
        })
        .catch((error: unknown) => {
          failedAt = Date.now();
          throw Object.assign(issuerUnavailable(settings.issuer), { cause: error });
        })
        .finally(() => {
          pending = undefined;
        });
      return pending;
    },
  };
}
