import type { Kysely } from "kysely";
import type Provider from "oidc-provider";
import type { Grant, Interaction, KoaContextWithOIDC } from "oidc-provider";
import type { Database } from "../../db/schema.js";
import { findById } from "../users/users.service.js";

/** The admin scope (the seed's admin scope): it reaches access tokens for admins only. */
export const ADMIN_SCOPE = "assay:admin";
/** Every scope the provider knows; the OpenID ones come with claims (provider.ts). */
export const SCOPES = ["openid", "email", "phone", "profile", "offline_access", ADMIN_SCOPE];

/**
 * A grant for Assay's own client, so that users are never asked to consent to the app they
 * signed in to. Made afresh at each authorization from the user's current rights: an admin gets
 * the admin scope for the API; for anyone else it is recorded as refused, so the provider does
 * not ask again.
 */
async function saveFirstPartyGrant(
  provider: Provider,
  db: Kysely<Database>,
  apiResource: string,
  input: { accountId: string; clientId: string; scopes: Iterable<string> },
): Promise<Grant> {
  const requested = new Set(input.scopes);
  const user = await findById(db, Number(input.accountId));
  const grant = new provider.Grant({ accountId: input.accountId, clientId: input.clientId });
  const openIdScopes = SCOPES.filter((scope) => requested.has(scope));
  if (openIdScopes.length > 0) grant.addOIDCScope(openIdScopes.join(" "));
  if (requested.has(ADMIN_SCOPE)) {
    if (user?.is_admin) grant.addResourceScope(apiResource, ADMIN_SCOPE);
    else grant.rejectResourceScope(apiResource, ADMIN_SCOPE);
  }
  await grant.save();
  return grant;
}

/** The provider's loadExistingGrant: the consent just given, else a first-party grant. */
export function loadFirstPartyGrant(db: Kysely<Database>, apiResource: string) {
  return async (ctx: KoaContextWithOIDC): Promise<Grant | undefined> => {
    const { oidc } = ctx;
    const given = oidc.result?.consent?.grantId;
    if (given) return oidc.provider.Grant.find(given);
    const accountId = oidc.session?.accountId;
    if (!accountId || !oidc.client) return undefined;
    return saveFirstPartyGrant(oidc.provider, db, apiResource, {
      accountId,
      clientId: oidc.client.clientId,
      scopes: oidc.requestParamScopes,
    });
  };
}

/** Consent for an interaction that asks for it (prompt=consent): granted, as above. */
export async function firstPartyGrantId(
  provider: Provider,
  db: Kysely<Database>,
  apiResource: string,
  details: Interaction,
): Promise<string> {
  const scope = typeof details.params.scope === "string" ? details.params.scope : "";
  const grant = await saveFirstPartyGrant(provider, db, apiResource, {
    accountId: details.session?.accountId ?? "",
    clientId: String(details.params.client_id),
    scopes: scope.split(" "),
  });
  return grant.jti as string;
}
