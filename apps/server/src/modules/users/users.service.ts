import type { Kysely } from "kysely";
import { z } from "zod";
import type { Config } from "../../config.js";
import type { Database } from "../../db/schema.js";
import { AppError, notFound } from "../../errors.js";
import {
  generatePassword,
  hashPassword,
  MAX_PASSWORD_LENGTH,
  MIN_PASSWORD_LENGTH,
  passwordMatches,
} from "./password.js";
import * as attempts from "./sign-in-attempts.repo.js";
import * as repo from "./users.repo.js";

export type { UserRow } from "./users.repo.js";

/** Who the first admin is when ASSAY_ADMIN_EMAIL is not set. */
export const DEFAULT_ADMIN_EMAIL = "admin@assay.local";

const EmailSchema = z.email();

/** Emails are compared in lower case: Alice@Example.com and alice@example.com are one user. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

function checkEmail(email: string): string {
  const normalized = normalizeEmail(email);
  if (normalized.length > 320 || !EmailSchema.safeParse(normalized).success) {
    throw new AppError(400, "invalid_email", `"${email}" is not an email address.`);
  }
  return normalized;
}

function checkName(name: string): string {
  const trimmed = name.trim();
  if (trimmed.length < 1 || trimmed.length > 100) {
    throw new AppError(400, "invalid_name", "A name is 1 to 100 characters.");
  }
  return trimmed;
}

/** Refuses passwords that are too short or too long, with a message saying so. */
export function checkPassword(password: string): void {
  if (password.length < MIN_PASSWORD_LENGTH || password.length > MAX_PASSWORD_LENGTH) {
    throw new AppError(
      400,
      "invalid_password",
      `A password is ${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters.`,
    );
  }
}

export interface CreatedUser {
  user: repo.UserRow;
  /** The password, when Assay generated it: shown once, never stored in clear. */
  generatedPassword: string | undefined;
}

/**
 * Creates an account of the embedded identity provider. Without a password, one is generated
 * and returned this once. There is no sign-up: only admins (through the CLI) create users.
 */
export async function createUser(
  db: Kysely<Database>,
  input: { email: string; name: string; password?: string; admin?: boolean },
): Promise<CreatedUser> {
  const email = checkEmail(input.email);
  const name = checkName(input.name);
  if (input.password !== undefined) checkPassword(input.password);
  const password = input.password ?? generatePassword();
  try {
    const user = await repo.insertUser(db, {
      email,
      name,
      passwordHash: await hashPassword(password),
      admin: input.admin ?? false,
    });
    return { user, generatedPassword: input.password === undefined ? password : undefined };
  } catch (error) {
    if ((error as { code?: string }).code === "23505") {
      throw new AppError(409, "user_exists", `A user with the email ${email} already exists.`);
    }
    throw error;
  }
}

/** The user with this email (any case), or undefined. */
export async function findByEmail(
  db: Kysely<Database>,
  email: string,
): Promise<repo.UserRow | undefined> {
  return repo.findByEmail(db, normalizeEmail(email));
}

/** Users' names by email as recorded (any case); an email of no user is absent. */
export async function namesByEmail(
  db: Kysely<Database>,
  emails: readonly string[],
): Promise<Map<string, string>> {
  const wanted = [...new Set(emails)];
  const found = await repo.namesByEmail(db, [...new Set(wanted.map(normalizeEmail))]);
  const byNormal = new Map(found.map((u) => [u.email, u.name]));
  const names = new Map<string, string>();
  for (const email of wanted) {
    const name = byNormal.get(normalizeEmail(email));
    if (name !== undefined) names.set(email, name);
  }
  return names;
}

/** The user with this id (the embedded provider's `sub`), or undefined. */
export async function findById(
  db: Kysely<Database>,
  id: number,
): Promise<repo.UserRow | undefined> {
  return Number.isSafeInteger(id) ? repo.findById(db, id) : undefined;
}

/**
 * The user whose email and password these are, or undefined. Takes as long for an unknown email
 * as for a wrong password, so that timing does not tell which emails have accounts. A disabled
 * user is returned too: the caller decides what to say.
 */
export async function verifyPassword(
  db: Kysely<Database>,
  email: string,
  password: string,
): Promise<repo.UserRow | undefined> {
  const found = await repo.findCredentials(db, normalizeEmail(email));
  const ok = await passwordMatches(password, found?.password_hash);
  if (!found || !ok) return undefined;
  return {
    id: found.id,
    email: found.email,
    name: found.name,
    picture: found.picture,
    is_admin: found.is_admin,
    disabled_at: found.disabled_at,
    created_at: found.created_at,
    issuer: found.issuer,
    subject: found.subject,
  };
}

export const listUsers = repo.listUsers;

async function requireUser(db: Kysely<Database>, email: string): Promise<repo.UserRow> {
  const user = await findByEmail(db, email);
  if (!user) throw notFound(`No user with the email ${normalizeEmail(email)}.`);
  return user;
}

/**
 * Marks a user disabled: they cannot sign in again. Their sessions at the provider end through
 * identity/account-changes.ts (disableUser), which the CLI and tests call.
 */
export async function markDisabled(db: Kysely<Database>, email: string): Promise<repo.UserRow> {
  const user = await requireUser(db, email);
  const disabled = (await repo.setDisabled(
    db,
    user.email,
    user.disabled_at ?? new Date(),
  )) as repo.UserRow;
  return disabled;
}

/**
 * Gives a user a new generated password, returned this once. Their failed attempts are
 * forgotten, so a user locked out by the attempt limit can sign in again at once; their sessions
 * at the provider end through identity/account-changes.ts (resetPassword).
 */
export async function setGeneratedPassword(
  db: Kysely<Database>,
  email: string,
): Promise<{ user: repo.UserRow; password: string }> {
  const user = await requireUser(db, email);
  const password = generatePassword();
  await repo.setPasswordHash(db, user.email, await hashPassword(password));
  await attempts.deleteForEmail(db, user.email);
  return { user, password };
}

export interface FirstAdmin {
  email: string;
  /** Present when Assay generated it (ASSAY_ADMIN_PASSWORD unset): print it once. */
  generatedPassword: string | undefined;
}

/**
 * On an install without users, creates the first admin: ASSAY_ADMIN_EMAIL (or
 * admin@assay.local) with ASSAY_ADMIN_PASSWORD, or a generated password that the caller shows
 * once. Does nothing when any user exists.
 */
export async function ensureFirstAdmin(
  db: Kysely<Database>,
  config: Pick<Config, "adminEmail" | "adminPassword">,
): Promise<FirstAdmin | undefined> {
  return repo.withFirstUserLock(db, async (trx) => {
    if ((await repo.countUsers(trx)) > 0) return undefined;
    const created = await createUser(trx, {
      email: config.adminEmail ?? DEFAULT_ADMIN_EMAIL,
      name: "Admin",
      password: config.adminPassword,
      admin: true,
    });
    return { email: created.user.email, generatedPassword: created.generatedPassword };
  });
}
