import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWTPayload } from "jose";
import Provider, { type KoaContextWithOIDC } from "oidc-provider";

/**
 * A second OpenID provider for tests: a separately configured oidc-provider on 127.0.0.1 that
 * Assay is pointed at as OIDC_ISSUER, the way it would be at Keycloak or Okta. Its login page
 * is replaced by an interaction that signs in `user` at once (no password: what is under test
 * is Assay's client, not this provider). It also holds its signing key, so tests can mint
 * tokens that verify against its JWKS, or almost do.
 */

export interface TestUser {
  sub: string;
  email: string;
  name: string;
  email_verified?: boolean;
}

export interface TestIssuer {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Who the next sign-in signs in; change it between flows. */
  user: TestUser;
  /** The private key behind the JWKS (kid "current"), to mint tokens. */
  signingKey: CryptoKey;
  /** A key that is not (or no longer) in the JWKS, with kid "retired". */
  retiredKey: CryptoKey;
  /** Signs `claims` as this issuer would (ES256, kid current), with overrides for attacks. */
  mint(
    claims: JWTPayload,
    options?: { key?: CryptoKey; kid?: string; typ?: string },
  ): Promise<string>;
  /** Requests the provider answered, by path, to count discovery and JWKS fetches. */
  hits: Map<string, number>;
  close(): Promise<void>;
}

export interface TestIssuerOptions {
  redirectUri: string;
  postLogoutRedirectUri: string;
  user: TestUser;
  /** JWT access tokens for the client (aud = client id) and scope claims in the ID token;
   * false: opaque access tokens and claims only from userinfo (the spec-default behaviour). */
  jwtAccessTokens?: boolean;
  accessTokenTtl?: number;
}

const CLIENT_ID = "assay-external";
const CLIENT_SECRET = "external-client-secret-for-tests-only";

async function listenOnLoopback(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

export async function startTestIssuer(options: TestIssuerOptions): Promise<TestIssuer> {
  const jwtTokens = options.jwtAccessTokens ?? true;
  const current = await generateKeyPair("ES256", { extractable: true });
  const retired = await generateKeyPair("ES256", { extractable: true });
  const jwk = {
    ...(await exportJWK(current.privateKey)),
    kid: "current",
    alg: "ES256",
    use: "sig",
  };
  const hits = new Map<string, number>();
  // The provider needs its URL, which needs the port: the server starts first, routes later.
  const route: { handler?: (req: IncomingMessage, res: ServerResponse) => void } = {};
  const server = createServer((req, res) => route.handler?.(req, res));
  const port = await listenOnLoopback(server);
  const issuer = `http://127.0.0.1:${port}`;
  const state = { user: options.user };
  const resource = `urn:assay-test:${CLIENT_ID}`;

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: CLIENT_ID,
        client_secret: CLIENT_SECRET,
        redirect_uris: [options.redirectUri],
        post_logout_redirect_uris: [options.postLogoutRedirectUri],
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        id_token_signed_response_alg: "ES256",
      },
    ],
    jwks: { keys: [jwk] },
    cookies: { keys: ["test-issuer-cookie-key"] },
    scopes: ["openid", "email", "profile", "offline_access"],
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
    conformIdTokenClaims: !jwtTokens,
    findAccount: (_ctx: unknown, sub: string) =>
      sub === state.user.sub
        ? { accountId: sub, claims: () => ({ email_verified: true, ...state.user }) }
        : undefined,
    // First-party client: every requested scope is granted without a consent screen.
    loadExistingGrant: async (ctx: KoaContextWithOIDC) => {
      const accountId = ctx.oidc.session?.accountId;
      if (!accountId || !ctx.oidc.client) return undefined;
      const grant = new ctx.oidc.provider.Grant({ accountId, clientId: ctx.oidc.client.clientId });
      grant.addOIDCScope([...ctx.oidc.requestParamOIDCScopes].join(" "));
      if (jwtTokens) grant.addResourceScope(resource, "");
      await grant.save();
      return grant;
    },
    issueRefreshToken: () => true,
    ttl: {
      AccessToken: options.accessTokenTtl ?? 600,
      AuthorizationCode: 60,
      IdToken: 3600,
      Interaction: 3600,
      Grant: 3600,
      Session: 3600,
      RefreshToken: 3600,
    },
    features: {
      devInteractions: { enabled: false },
      resourceIndicators: {
        enabled: jwtTokens,
        defaultResource: () => resource,
        useGrantedResource: () => true,
        getResourceServerInfo: () => ({
          scope: "",
          audience: CLIENT_ID,
          accessTokenFormat: "jwt",
          jwt: { sign: { alg: "ES256" } },
        }),
      },
    },
    interactions: {
      url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}`,
    },
  });

  const callback = provider.callback();
  route.handler = (req, res) => {
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    hits.set(path, (hits.get(path) ?? 0) + 1);
    if (!path.startsWith("/interaction/")) return void callback(req, res);
    // The test interaction: sign in the configured user, no questions asked.
    void provider
      .interactionFinished(
        req,
        res,
        { login: { accountId: state.user.sub } },
        {
          mergeWithLastSubmission: false,
        },
      )
      .catch((error: unknown) => {
        res.statusCode = 500;
        res.end(String(error));
      });
  };

  return {
    issuer,
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    get user() {
      return state.user;
    },
    set user(user: TestUser) {
      state.user = user;
    },
    signingKey: current.privateKey,
    retiredKey: retired.privateKey,
    hits,
    mint: async (claims, mintOptions = {}) =>
      new SignJWT(claims)
        .setProtectedHeader({
          alg: "ES256",
          kid: mintOptions.kid ?? (mintOptions.key === retired.privateKey ? "retired" : "current"),
          typ: mintOptions.typ ?? "at+jwt",
        })
        .sign(mintOptions.key ?? current.privateKey),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
