import type { Me, ProfileUpdate } from "@assay/core";
import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import { AppError, notFound } from "../../errors.js";
import { deriveKey } from "../../secret-key.js";
import { newObjectKey, type ObjectStore } from "../../storage/index.js";
import { open, seal } from "../../secret-box.js";
import * as repo from "../users/users.repo.js";

/**
 * The signed-in user's own profile (spec section 2 "Profile dialog", 3 "User profile"): the
 * name, the test-management user and password or API key, and the picture. The email is
 * read-only. The password is write-only: stored AES-256-GCM encrypted, never returned.
 */

export interface ProfileDeps {
  db: Kysely<Database>;
  /** AES-256-GCM key of the test-management secret (profileKey). */
  key: Buffer;
  objects: ObjectStore;
}

/** The key that encrypts test-management secrets, derived from the installation's secret. */
export function profileKey(secret: Buffer): Buffer {
  return deriveKey(secret, "profile-secrets");
}

/** Ties a stored secret to its user: copied into another user's row it does not decrypt. */
const secretContext = (userId: number) => `assay-user:${userId}:spira-pass`;

const AVATAR_PREFIX = "avatars";
const OBJECTS_PATH = "/v1/objects/";

/** The GET /v1/me answer: whether a password is stored, never the password. */
export function toMe(row: repo.ProfileRow, csrfToken: string | null): Me {
  const passSet = row.spira_secret_encrypted !== null;
  return {
    signed_in: true,
    id: row.id,
    email: row.email,
    name: row.name,
    picture: row.picture,
    admin: row.is_admin,
    spira_user: row.spira_user,
    spira_pass_set: passSet,
    has_test_management_credentials: passSet && row.spira_user !== null,
    csrf_token: csrfToken,
  };
}

/** The signed-in user's profile; 404 when the user was deleted meanwhile. */
export async function getProfile(deps: ProfileDeps, userId: number): Promise<repo.ProfileRow> {
  const row = await repo.findProfile(deps.db, userId);
  if (!row) throw notFound("Your user no longer exists. Sign in again.");
  return row;
}

const blankToNull = (value: string | null | undefined) =>
  value === undefined ? undefined : value === null || value.trim() === "" ? null : value;

/** The object key of a picture Assay stored, or undefined for anything else. */
function storedAvatarKey(picture: string | null): string | undefined {
  return picture?.startsWith(`${OBJECTS_PATH}${AVATAR_PREFIX}/`)
    ? picture.slice(OBJECTS_PATH.length)
    : undefined;
}

/**
 * Applies the dialog's changes. An email other than the current one is refused (400): it is
 * how the user is known at sign-in. A missing field keeps its value; for the password an empty
 * or null value removes the stored one.
 */
export async function editProfile(
  deps: ProfileDeps,
  userId: number,
  update: ProfileUpdate,
): Promise<repo.ProfileRow> {
  const current = await getProfile(deps, userId);
  if (update.email !== undefined && update.email.trim().toLowerCase() !== current.email) {
    throw new AppError(
      400,
      "email_read_only",
      "The email cannot be changed here: it is how you are known at sign-in.",
    );
  }
  const changes: repo.ProfileChanges = {};
  if (update.name !== undefined) changes.name = update.name;
  const spiraUser = blankToNull(update.spira_user);
  if (spiraUser !== undefined) changes.spira_user = spiraUser;
  const pass = blankToNull(update.spira_pass);
  if (pass !== undefined) {
    changes.spira_secret_encrypted =
      pass === null ? null : seal(deps.key, pass, secretContext(userId));
  }
  if (update.picture === null) changes.picture = null;
  const row = await repo.updateProfile(deps.db, userId, changes);
  if (!row) throw notFound("Your user no longer exists. Sign in again.");
  const oldAvatar = storedAvatarKey(current.picture);
  if (update.picture === null && oldAvatar) await deps.objects.delete(oldAvatar);
  return row;
}

/** Whether the profile holds both the test-management user and its secret (an OQ run needs them). */
export async function hasTestManagementCredentials(
  db: Kysely<Database>,
  userId: number,
): Promise<boolean> {
  const row = await repo.findProfile(db, userId);
  return Boolean(row?.spira_user && row.spira_secret_encrypted);
}

/** The test-management user, for the build launcher's credential string. */
export async function testManagementUser(
  db: Kysely<Database>,
  userId: number,
): Promise<string | undefined> {
  return (await repo.findProfile(db, userId))?.spira_user ?? undefined;
}

/** The stored test-management password or API key in clear, for the build launcher only. */
export async function testManagementSecret(
  deps: ProfileDeps,
  userId: number,
): Promise<string | undefined> {
  const row = await repo.findProfile(deps.db, userId);
  if (!row?.spira_secret_encrypted) return undefined;
  return open(deps.key, row.spira_secret_encrypted, secretContext(userId));
}

const SIGNATURES: { type: string; ext: string; matches: (b: Buffer) => boolean }[] = [
  {
    type: "image/png",
    ext: "png",
    matches: (b) => b.subarray(0, 8).equals(Buffer.from("89504e470d0a1a0a", "hex")),
  },
  {
    type: "image/jpeg",
    ext: "jpg",
    matches: (b) => b.subarray(0, 3).equals(Buffer.from("ffd8ff", "hex")),
  },
  {
    type: "image/gif",
    ext: "gif",
    matches: (b) => ["GIF87a", "GIF89a"].includes(b.subarray(0, 6).toString("latin1")),
  },
  {
    type: "image/webp",
    ext: "webp",
    matches: (b) =>
      b.subarray(0, 4).toString("latin1") === "RIFF" &&
      b.subarray(8, 12).toString("latin1") === "WEBP",
  },
];

/**
 * Stores an uploaded picture in the object store and makes it the user's. The bytes must be a
 * PNG, JPEG, GIF or WebP whatever the Content-Type says, so nothing else is served as an image.
 */
export async function setPicture(
  deps: ProfileDeps,
  userId: number,
  bytes: Buffer,
): Promise<repo.ProfileRow> {
  const format = SIGNATURES.find((s) => s.matches(bytes));
  if (!format) {
    throw new AppError(
      415,
      "unsupported_picture",
      "The picture must be a PNG, JPEG, GIF or WebP image.",
    );
  }
  const current = await getProfile(deps, userId);
  const key = newObjectKey(AVATAR_PREFIX, format.ext);
  await deps.objects.put(key, bytes, { contentType: format.type });
  const row = await repo.updateProfile(deps.db, userId, { picture: `${OBJECTS_PATH}${key}` });
  if (!row) throw notFound("Your user no longer exists. Sign in again.");
  const oldAvatar = storedAvatarKey(current.picture);
  if (oldAvatar) await deps.objects.delete(oldAvatar);
  return row;
}
