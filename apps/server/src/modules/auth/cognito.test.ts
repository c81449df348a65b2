import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig, ConfigError, EXAMPLE_CONFIG_PATH } from "../../config.js";
import { startTestIssuer, type TestIssuer } from "../../../test/test-issuer.js";
import { audienceRule } from "./auth.setup.js";
import { signOutUrl } from "./auth.service.js";
import { createJwtVerifier } from "./jwt-verifier.js";
import { createOidcClient, isCognitoIssuer, type IssuerSettings } from "./oidc-client.js";

/**
 * Cognito's quirks, played by the test issuer: access tokens carry client_id and token_use and
 * no aud; logout wants client_id and logout_uri. And the settings that choose an issuer.
 */

const PUBLIC_URL = "https://assay.example.com";
let issuer: TestIssuer;
let settings: IssuerSettings;

const now = () => Math.floor(Date.now() / 1000);

beforeAll(async () => {
  issuer = await startTestIssuer({
    redirectUri: `${PUBLIC_URL}/auth/callback`,
    postLogoutRedirectUri: `${PUBLIC_URL}/`,
    user: { sub: "c0gn1t0", email: "dana@example.com", name: "Dana" },
  });
  settings = {
    kind: "external",
    issuer: issuer.issuer,
    clientId: "7abc123cognitoclient",
    clientSecret: "secret",
    scopes: "phone email profile openid aws.cognito.signin.user.admin",
    redirectUri: `${PUBLIC_URL}/auth/callback`,
    postLogoutRedirectUri: `${PUBLIC_URL}/`,
    resource: undefined,
    cognito: true,
    fetch: undefined,
  };
});

afterAll(async () => {
  await issuer?.close();
});

describe("Cognito access tokens", () => {
  const cognitoClaims = (overrides: Record<string, unknown> = {}) => ({
    iss: issuer.issuer,
    sub: "c0gn1t0",
    client_id: "7abc123cognitoclient",
    token_use: "access",
    scope: "openid email aws.cognito.signin.user.admin",
    exp: now() + 300,
    iat: now(),
    ...overrides,
  });

  it("accepts one with our client_id and no aud", async () => {
    const verify = createJwtVerifier(createOidcClient(settings), {
      kind: "cognito",
      clientId: "7abc123cognitoclient",
    });
    const payload = await verify(await issuer.mint(cognitoClaims(), { typ: "JWT" }));
    expect(payload.sub).toBe("c0gn1t0");
  });

  it.each([
    ["another app client", { client_id: "someone-else" }, "issued to another client"],
    ["an ID token", { token_use: "id" }, "not an access token"],
  ])("refuses %s", async (_name, overrides, reason) => {
    const verify = createJwtVerifier(createOidcClient(settings), {
      kind: "cognito",
      clientId: "7abc123cognitoclient",
    });
    await expect(
      verify(await issuer.mint(cognitoClaims(overrides), { typ: "JWT" })),
    ).rejects.toMatchObject({
      statusCode: 401,
      message: expect.stringContaining(reason),
    });
  });
});

describe("Cognito sign-out", () => {
  it("sends client_id and logout_uri to its logout endpoint instead of id_token_hint", async () => {
    const url = new URL(
      await signOutUrl(
        { oidc: createOidcClient(settings) },
        { access_token: "a", id_token: "i" },
        pino({ level: "silent" }),
      ),
    );
    expect(url.searchParams.get("client_id")).toBe("7abc123cognitoclient");
    expect(url.searchParams.get("logout_uri")).toBe(`${PUBLIC_URL}/`);
    expect(url.searchParams.has("id_token_hint")).toBe(false);
  });
});

describe("choosing the issuer", () => {
  const env = (extra: Record<string, string>) =>
    loadConfig({ ASSAY_CONFIG: EXAMPLE_CONFIG_PATH, ASSAY_PUBLIC_URL: PUBLIC_URL, ...extra });

  it("recognises Cognito user pools by their issuer", () => {
    expect(isCognitoIssuer("https://cognito-idp.us-east-1.amazonaws.com/us-east-1_AbC")).toBe(true);
    expect(isCognitoIssuer("https://login.example.com/realms/qa")).toBe(false);
    expect(isCognitoIssuer("https://cognito-idp.us-east-1.amazonaws.com.evil.example/x")).toBe(
      false,
    );
  });

  it("checks Cognito tokens by client_id, others by aud (the client id or OIDC_AUDIENCE)", () => {
    const config = env({});
    expect(audienceRule(settings, config)).toEqual({
      kind: "cognito",
      clientId: "7abc123cognitoclient",
    });
    expect(audienceRule({ ...settings, cognito: false }, config)).toEqual({
      kind: "aud",
      value: "7abc123cognitoclient",
    });
    expect(
      audienceRule({ ...settings, cognito: false }, env({ OIDC_AUDIENCE: "api://assay" })),
    ).toEqual({
      kind: "aud",
      value: "api://assay",
    });
  });

  it("needs a client id and secret with OIDC_ISSUER, https unless local, and never prints the secret", () => {
    const problems = (extra: Record<string, string>) => {
      try {
        env(extra);
      } catch (error) {
        if (error instanceof ConfigError) return error.problems;
        throw error;
      }
      return [];
    };
    expect(problems({ OIDC_ISSUER: "https://login.example.com" })).toEqual([
      expect.stringMatching(/^OIDC_CLIENT_ID: required when OIDC_ISSUER is set/),
      expect.stringMatching(/^OIDC_CLIENT_SECRET: required when OIDC_ISSUER is set/),
    ]);
    expect(
      problems({
        OIDC_ISSUER: "http://login.example.com",
        OIDC_CLIENT_ID: "a",
        OIDC_CLIENT_SECRET: "b",
      }),
    ).toEqual([expect.stringMatching(/^OIDC_ISSUER: expected an https URL/)]);
    expect(problems({ OIDC_CLIENT_SECRET: "" })[0]).not.toContain('""');
    expect(problems({ OIDC_SCOPES: "email profile" })).toEqual([
      expect.stringMatching(/^OIDC_SCOPES: expected space-separated scopes including openid/),
    ]);
    expect(problems({ ASSAY_READ_ACCESS: "private" })).toEqual([
      expect.stringMatching(/^ASSAY_READ_ACCESS: expected public .* or signed-in/),
    ]);
  });

  it("defaults to public reading, 8-hour idle and 7-day sessions, and the spec's scopes", () => {
    const config = env({});
    expect(config.readAccess).toBe("public");
    expect(config.sessionIdleMs).toBe(480 * 60_000);
    expect(config.sessionMaxMs).toBe(168 * 3_600_000);
    expect(config.oidcScopes).toBe("openid email phone profile offline_access");
    const cognito = env({
      OIDC_SCOPES: "phone email profile openid aws.cognito.signin.user.admin",
    });
    expect(cognito.oidcScopes).toContain("aws.cognito.signin.user.admin");
  });
});
