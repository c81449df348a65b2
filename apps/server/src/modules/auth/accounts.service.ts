import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import { AppError } from "../../errors.js";
import * as users from "../users/users.repo.js";
import type { UserPrincipal } from "./sessions.service.js";

/**
 * Which Assay user a sign-in or an access token stands for. Embedded-provider users are known
 * by their id (the provider's sub); external issuers' users by (issuer, sub), created on their
 * first sign-in. After that Assay's own profile is the source of truth: a name changed at the
 * issuer does not overwrite the one edited in Assay.
 */

export interface IdentityClaims {
  sub: string;
  email?: unknown;
  email_verified?: unknown;
  name?: unknown;
  given_name?: unknown;
  family_name?: unknown;
  preferred_username?: unknown;
}

export interface IssuerIdentity {
  kind: "embedded" | "external";
  issuer: string;
}

const text = (value: unknown) =>
  typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;

const refused = (message: string) => new AppError(403, "sign_in_refused", message);

/** The principal of a signed-in user, as the access rules see it. */
export function principalOf(row: users.UserRow): UserPrincipal {
  return { kind: "user", id: row.id, email: row.email, name: row.name, admin: row.is_admin };
}

function displayName(claims: IdentityClaims, email: string): string {
  const full = [text(claims.given_name), text(claims.family_name)].filter(Boolean).join(" ");
  return text(claims.name) ?? (text(full) || undefined) ?? text(claims.preferred_username) ?? email;
}

async function externalAccount(
  db: Kysely<Database>,
  issuer: string,
  claims: IdentityClaims,
): Promise<users.UserRow> {
  const known = await users.findBySubject(db, issuer, claims.sub);
  if (known) return known;
  const email = text(claims.email)?.toLowerCase();
  if (!email) {
    throw refused(
      "The sign-in provider did not share your email address. Ask an administrator to grant Assay the email scope.",
    );
  }
  const created = await users.insertExternalUser(db, {
    email,
    name: displayName(claims, email).slice(0, 100),
    issuer,
    subject: claims.sub,
  });
  if (created) return created;
  // The email is taken. A user made beforehand (e.g. with `assay users add`) is linked, but only
  // on the provider's word that the address is verified, and never away from another issuer.
  const existing = await users.findByEmail(db, email);
  // A concurrent first sign-in of the same user made the row.
  if (existing?.issuer === issuer && existing.subject === claims.sub) return existing;
  const linked =
    existing && existing.issuer === null && claims.email_verified === true
      ? await users.linkToIssuer(db, existing.id, issuer, claims.sub)
      : undefined;
  if (linked) return linked;
  throw refused(
    `An Assay account for ${email} already exists and belongs to another sign-in. Ask an administrator to link it.`,
  );
}

/** The user signing in with these ID-token (and userinfo) claims; 403 when refused. */
export async function accountForSignIn(
  db: Kysely<Database>,
  identity: IssuerIdentity,
  claims: IdentityClaims,
): Promise<users.UserRow> {
  const row =
    identity.kind === "embedded"
      ? await embeddedAccount(db, claims.sub)
      : await externalAccount(db, identity.issuer, claims);
  if (!row) throw refused("Your Assay account no longer exists. Ask an administrator.");
  if (row.disabled_at) throw refused("Your Assay account is disabled. Ask an administrator.");
  return row;
}

async function embeddedAccount(db: Kysely<Database>, sub: string) {
  if (!/^[1-9][0-9]{0,9}$/.test(sub)) return undefined;
  const row = await users.findById(db, Number(sub));
  return row && row.issuer === null ? row : undefined;
}

/** The enabled user an access token's sub stands for, or undefined. */
export async function accountForToken(
  db: Kysely<Database>,
  identity: IssuerIdentity,
  sub: string,
): Promise<users.UserRow | undefined> {
  const row =
    identity.kind === "embedded"
      ? await embeddedAccount(db, sub)
      : await users.findBySubject(db, identity.issuer, sub);
  return row && !row.disabled_at ? row : undefined;
}
