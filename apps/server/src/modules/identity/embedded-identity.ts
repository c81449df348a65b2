import type { FastifyBaseLogger, FastifyPluginAsync } from "fastify";
import type { JWK } from "jose";
import type { Kysely } from "kysely";
import type { Config } from "../../config.js";
import type { Database } from "../../db/schema.js";
import { forgetOldAttempts } from "../users/sign-in.service.js";
import { deleteExpiredState } from "./identity.service.js";
import { interactionRoutes } from "./interactions.routes.js";
import { loadSigningKeys, publicJwks } from "./keys.js";
import { ASSETS_PATH } from "./login-page.js";
import { mountProvider } from "./mount.js";
import {
  apiResourceOf,
  createProvider,
  embeddedClientSettings,
  type EmbeddedClientSettings,
  type LoadedProvider,
} from "./provider.js";
import { SIGN_IN_CSS, SIGN_OUT_JS } from "./sign-in-assets.js";

const CLEANUP_INTERVAL_MS = 10 * 60 * 1000;

export interface EmbeddedIdentity {
  /** Issuer, client id and secret of Assay's own client at the provider. */
  client: EmbeddedClientSettings;
  /** The provider's public keys, as served at `${issuer}/jwks`, to verify its tokens locally. */
  publicKeys(): Promise<{ keys: JWK[] }>;
  /** /oidc/*: register with app.register. */
  routes: FastifyPluginAsync;
}

/**
 * The embedded identity provider (used when OIDC_ISSUER is not set). The provider is made when
 * the app is ready, from the signing keys in the database, and not while it is built, so that
 * building touches no table (a server answers /readyz 503 before it is migrated). startServer
 * loads the keys before building, so a wrong secret key stops the start.
 */
export function createEmbeddedIdentity(deps: {
  config: Config;
  db: Kysely<Database>;
  /** The installation's secret key (secret-key.ts), read once per start by the caller. */
  secret: Buffer;
  log: FastifyBaseLogger;
}): EmbeddedIdentity {
  const { config, db, secret } = deps;
  const publicUrl = new URL(config.publicUrl);
  let loading: Promise<LoadedProvider> | undefined;
  const load = (): Promise<LoadedProvider> => {
    loading ??= loadSigningKeys(db, secret).then((signingKeys) => {
      const provider = createProvider({ config, db, secret, signingKeys, log: deps.log });
      return { provider, handle: provider.callback(), signingKeys };
    });
    // A failed load (database down) is tried again by the next request.
    loading.catch(() => (loading = undefined));
    return loading;
  };

  const routes: FastifyPluginAsync = async (app) => {
    // Each in a plugin of its own: the provider's replaces the body parsers, the form's adds one.
    await app.register(async (scope) => mountProvider(scope, load, publicUrl));
    await app.register(
      interactionRoutes({ load, db, publicUrl, apiResource: apiResourceOf(config) }),
    );

    const asset = (name: string, type: string, body: string) =>
      app.get(
        `${ASSETS_PATH}/${name}`,
        { config: { access: "open" }, schema: { hide: true } },
        async (_request, reply) =>
          reply.type(type).header("cache-control", "public, max-age=3600").send(body),
      );
    asset("sign-in.css", "text/css; charset=utf-8", SIGN_IN_CSS);
    asset("sign-out.js", "text/javascript; charset=utf-8", SIGN_OUT_JS);

    // Expired sessions, codes and tokens, and sign-in attempts older than the limit's window.
    const cleanup = async () => {
      try {
        await deleteExpiredState(db);
        await forgetOldAttempts(db);
      } catch (error) {
        app.log.warn({ err: error }, "identity cleanup failed; it runs again later");
      }
    };
    // Made at start rather than on the first sign-in, so that its problems show at once; the
    // server still starts (and answers /readyz 503) on a database that is not migrated yet.
    app.addHook("onReady", async () => {
      await load().catch((error: unknown) =>
        app.log.warn({ err: error }, "identity provider not ready; the first sign-in retries"),
      );
    });

    const timer = setInterval(() => void cleanup(), CLEANUP_INTERVAL_MS);
    timer.unref();
    app.addHook("onClose", async () => clearInterval(timer));
  };

  return {
    client: embeddedClientSettings(config, secret),
    publicKeys: async () => publicJwks((await load()).signingKeys),
    routes,
  };
}
