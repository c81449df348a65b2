import net from "node:net";
import type { Db } from "../src/db/pool.js";
import { embeddedClientSettings } from "../src/modules/identity/provider.js";
import { buildTestApp, TEST_SECRET_KEY, type TestApp } from "./build-test-app.js";

/** A port nobody listens on right now. */
export async function freePort(): Promise<number> {
  const server = net.createServer().listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface ListeningTestApp extends TestApp {
  /** Where this instance listens. */
  address: string;
  /** ASSAY_PUBLIC_URL: its own address, or the first instance's when it stands in for it. */
  publicUrl: string;
  issuer: string;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
}

/**
 * The real app listening on a port of its own, for tests that speak HTTP to the embedded
 * provider (cookies, redirects). `publicUrl` makes a second server of the same installation.
 */
export async function startListeningApp(
  db: Db,
  options: { publicUrl?: string; publicHostname?: string; env?: Record<string, string> } = {},
): Promise<ListeningTestApp> {
  const port = await freePort();
  const address = `http://127.0.0.1:${port}`;
  // publicHostname: the same server under another name (localhost), as ASSAY_PUBLIC_URL's default.
  const publicUrl =
    options.publicUrl ??
    (options.publicHostname ? `http://${options.publicHostname}:${port}` : address);
  const testApp = await buildTestApp(db, {
    env: { ASSAY_PUBLIC_URL: publicUrl, PORT: String(port), ...options.env },
  });
  await testApp.app.listen({ port, host: "127.0.0.1" });
  const secret = Buffer.from(options.env?.ASSAY_SECRET_KEY ?? TEST_SECRET_KEY, "base64");
  const client = embeddedClientSettings({ publicUrl }, secret);
  return {
    ...testApp,
    address,
    publicUrl,
    issuer: client.issuer,
    clientId: client.clientId,
    clientSecret: client.clientSecret,
    redirectUri: `${publicUrl}/auth/callback`,
  };
}

/** The token endpoint's answer to an authorization code, as Assay's server asks for it. */
export async function redeemCode(
  app: ListeningTestApp,
  input: { code: string; codeVerifier: string; tokenUrl?: string },
): Promise<Response> {
  const basic = Buffer.from(`${app.clientId}:${app.clientSecret}`).toString("base64");
  return fetch(input.tokenUrl ?? `${app.issuer}/token`, {
    method: "POST",
    headers: {
      authorization: `Basic ${basic}`,
      "content-type": "application/x-www-form-urlencoded",
    },
    body: new URLSearchParams({
      grant_type: "authorization_code",
      code: input.code,
      code_verifier: input.codeVerifier,
      redirect_uri: app.redirectUri,
    }).toString(),
  });
}
