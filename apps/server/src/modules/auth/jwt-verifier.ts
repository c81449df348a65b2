import {
  createRemoteJWKSet,
  customFetch,
  errors,
  jwtVerify,
  type JWTPayload,
  type JWTVerifyGetKey,
} from "jose";
import { AppError } from "../../errors.js";
import type { FetchLike } from "./in-process-fetch.js";
import { issuerUnavailable, type OidcClient } from "./oidc-client.js";

/**
 * Verifies the issuer's access tokens sent as bearer tokens (the CLI, CI and scripts), with jose
 * against the issuer's published keys: signature, issuer, audience, expiry, and an allow-list of
 * asymmetric algorithms, so "none" and HMAC tokens made with a public key never pass.
 */

/** Asymmetric only: an HMAC algorithm would let anyone holding the public key sign. */
export const ALLOWED_ALGORITHMS = ["RS256", "RS384", "RS512", "PS256", "ES256", "ES384", "EdDSA"];
/** Seconds of clock difference forgiven on exp and nbf. */
export const CLOCK_TOLERANCE_S = 30;

/**
 * Whom a token must be for: an `aud` value (the embedded provider's resource, or the client id /
 * OIDC_AUDIENCE of an external issuer), or Cognito's `client_id` claim, as its access tokens
 * carry no aud.
 */
export type AudienceRule = { kind: "aud"; value: string } | { kind: "cognito"; clientId: string };

const invalid = (reason: string) =>
  new AppError(401, "unauthorized", `The bearer token is not valid: ${reason}.`);

/** What jose reports, in words a caller can act on; the token itself is never repeated. */
function reasonOf(error: unknown): string {
  if (error instanceof errors.JWTExpired) return "it has expired";
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === "nbf") return "it is not valid yet";
    if (error.claim === "iss") return "it was issued by another issuer";
    if (error.claim === "aud") return "it is meant for another audience";
    return `its ${error.claim} claim is not acceptable`;
  }
  if (error instanceof errors.JOSEAlgNotAllowed) return "its algorithm is not allowed";
  if (error instanceof errors.JWKSNoMatchingKey) return "no current key of the issuer signed it";
  if (error instanceof errors.JWSSignatureVerificationFailed) return "its signature does not match";
  return "it is not a well-formed signed JWT";
}

/**
 * The keys could not be fetched (network error, timeout, a non-200 or non-JSON answer): the
 * token may be fine, the issuer is what is down. jose reports a bad token with a subclass of
 * JOSEError and a failed fetch with the base class or the fetch's own error.
 */
function keysUnavailable(error: unknown): boolean {
  if (error instanceof errors.JWKSTimeout || error instanceof errors.JWKSInvalid) return true;
  return !(error instanceof errors.JOSEError) || error.constructor === errors.JOSEError;
}

/** ID, refresh and logout tokens are signed by the same keys; only access tokens are accepted. */
function notAnAccessToken(payload: JWTPayload, typ: string | undefined): string | undefined {
  const headerTyp = typ?.toLowerCase();
  if (headerTyp && !["jwt", "at+jwt", "application/at+jwt"].includes(headerTyp)) {
    return `its type is ${typ}, not an access token`;
  }
  if (payload.nonce !== undefined) return "it is an ID token, not an access token";
  if (payload.token_use !== undefined && payload.token_use !== "access") {
    return "it is not an access token (token_use)";
  }
  // Keycloak marks its token kinds in a typ claim: "Bearer" for access tokens.
  if (typeof payload.typ === "string" && payload.typ !== "Bearer") {
    return "it is not an access token (typ)";
  }
  if (payload.events !== undefined) return "it is a logout token";
  return undefined;
}

export type JwtVerifier = (token: string) => Promise<JWTPayload & { sub: string }>;

/** True for a compact JWS shape (three base64url parts), as opposed to a service token. */
export function looksLikeJwt(token: string): boolean {
  return /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/.test(token);
}

/** A verifier bound to the client's issuer; the JWKS is fetched on first use and cached. */
export function createJwtVerifier(
  oidc: OidcClient,
  audience: AudienceRule,
  fetchImpl?: FetchLike,
): JwtVerifier {
  let jwks: JWTVerifyGetKey | undefined;
  const issuer = oidc.settings.issuer;

  return async (token) => {
    const configuration = await oidc.configuration();
    const jwksUri = configuration.serverMetadata().jwks_uri;
    if (!jwksUri) throw issuerUnavailable(issuer);
    jwks ??= createRemoteJWKSet(new URL(jwksUri), {
      timeoutDuration: 5_000,
      cooldownDuration: 30_000,
      ...(fetchImpl ? { [customFetch]: fetchImpl } : {}),
    });
    let payload: JWTPayload;
    let typ: string | undefined;
    try {
      const verified = await jwtVerify(token, jwks, {
        issuer,
        audience: audience.kind === "aud" ? audience.value : undefined,
        algorithms: ALLOWED_ALGORITHMS,
        clockTolerance: CLOCK_TOLERANCE_S,
        requiredClaims: ["exp", "sub"],
      });
      payload = verified.payload;
      typ = verified.protectedHeader.typ;
    } catch (error) {
      if (keysUnavailable(error)) throw issuerUnavailable(issuer);
      throw invalid(reasonOf(error));
    }
    if (audience.kind === "cognito" && payload.client_id !== audience.clientId) {
      throw invalid("it was issued to another client");
    }
    const wrongKind = notAnAccessToken(payload, typ);
    if (wrongKind) throw invalid(wrongKind);
    if (typeof payload.sub !== "string" || payload.sub === "") throw invalid("it names no subject");
    return { ...payload, sub: payload.sub };
  };
}
