import { z } from "zod";
import { hasControlCharacters } from "./build-values.js";

/**
 * Sign-in and profile (spec sections 2 "Page chrome", 3 "User profile", 6): the server is the
 * OpenID client and the browser holds only a session cookie. GET /v1/me says who is signed in;
 * PUT /v1/me edits the profile. Profile fields keep the spec's names (spiraUser, spiraPass),
 * snake_cased like the rest of the API.
 */

/** Spec section 9: a failed profile update shows its error for 6000 ms. */
export const PROFILE_ALERT_MS = 6000;
/** Largest profile picture accepted, in bytes. */
export const MAX_PICTURE_BYTES = 256 * 1024;
/** Picture formats accepted; each is checked by its first bytes, not only by Content-Type. */
export const PICTURE_TYPES = ["image/png", "image/jpeg", "image/webp", "image/gif"] as const;

export const LoginQuerySchema = z.object({
  return_to: z
    .string()
    .max(2000)
    .optional()
    .describe("Path to return to after sign-in; only same-origin paths (/...) are followed"),
  return_host: z
    .string()
    .max(2000)
    .optional()
    .describe(
      "A data-harmonization host (ASSAY_DATA_HARMONIZATION_HOSTS) to return to, signed in " +
        "there by a one-time code; any other host is refused",
    ),
  handoff: z
    .string()
    .max(2000)
    .optional()
    .describe("With return_host: the hash of that host's browser nonce, set by Assay"),
  at_public_url: z
    .literal("1")
    .optional()
    .describe(
      "Set by Assay when it sends a browser that opened it at another address on to " +
        "ASSAY_PUBLIC_URL; that request is not sent on again (a proxy may rewrite Host)",
    ),
});

export const CallbackQuerySchema = z.looseObject({
  code: z.string().optional().describe("Authorization code"),
  state: z.string().optional().describe("Must match the state of the sign-in this browser began"),
  iss: z.string().optional().describe("Issuer of the answer (RFC 9207), checked against ours"),
  error: z.string().optional().describe("The provider's refusal, if any"),
  error_description: z.string().optional(),
});

/** The one-time code a data-harmonization host exchanges for its own session. */
export const HandoffQuerySchema = z.object({
  code: z
    .string()
    .max(2000)
    .optional()
    .describe("The one-time sign-in code Assay's public address made for this host"),
});

export const LogoutBodySchema = z
  .object({
    csrf_token: z
      .string()
      .optional()
      .describe("The session's CSRF token, for an HTML form (scripts send x-csrf-token)"),
  })
  .nullish();

export const LogoutResponseSchema = z.object({
  redirect_to: z
    .string()
    .describe("Where the browser goes next: the provider's logout, or Assay's home page"),
});

export const MeSchema = z.object({
  signed_in: z.literal(true).describe("Someone is signed in: this user"),
  id: z.int().describe("Assay's user id"),
  email: z.email().describe("Read-only: it identifies the user"),
  name: z.string(),
  picture: z.string().nullable().describe("URL of the profile picture, or null for initials"),
  admin: z.boolean().describe("May manage users, tokens and settings of the installation"),
  spira_user: z.string().nullable().describe("Test-management (SpiraTest) user name"),
  spira_pass_set: z
    .boolean()
    .describe("A test-management password or API key is stored; the value is never returned"),
  has_test_management_credentials: z
    .boolean()
    .describe("Both the test-management user and password are set (needed by OQ builds)"),
  csrf_token: z
    .string()
    .nullable()
    .describe("Send as x-csrf-token with changes made with the session cookie; null for bearers"),
});
export type Me = z.infer<typeof MeSchema>;

export const SignedOutSchema = z.object({
  signed_in: z.literal(false).describe("Nobody is signed in on this request"),
});

/**
 * GET /v1/me: who is signed in. Nobody is an answer, not an error, so a signed-out page load
 * logs no failed request: 200 with signed_in false.
 */
export const WhoIsSignedInSchema = z.discriminatedUnion("signed_in", [MeSchema, SignedOutSchema]);
export type WhoIsSignedIn = z.infer<typeof WhoIsSignedInSchema>;

/**
 * The name (EXECUTOR) and the test-management credentials (SPIRA_CREDENTIALS_STRING) reach build
 * runners as one-line variables: a line break there could add variables of its own to a CI job
 * (issue 33). The password refuses controls only; any other character may be part of it.
 */
const oneLine = (what: string) =>
  `${what} cannot contain control characters such as line breaks or tabs: it is handed to build runners as one line.`;

/** The profile's limits, which the Profile dialog counts as they are typed. */
export const PROFILE_NAME_MAX_LENGTH = 100;
export const PROFILE_SPIRA_USER_MAX_LENGTH = 200;
export const PROFILE_SPIRA_PASS_MAX_LENGTH = 1000;

export const ProfileUpdateSchema = z.strictObject({
  email: z.string().optional().describe("Read-only: accepted only when unchanged"),
  name: z
    .string()
    .trim()
    .min(1, "Name is required")
    .max(PROFILE_NAME_MAX_LENGTH, `A name is at most ${PROFILE_NAME_MAX_LENGTH} characters`)
    .refine((text) => !hasControlCharacters(text), oneLine("A name"))
    .optional(),
  spira_user: z
    .string()
    .trim()
    .max(
      PROFILE_SPIRA_USER_MAX_LENGTH,
      `The test-management username is at most ${PROFILE_SPIRA_USER_MAX_LENGTH} characters`,
    )
    .refine((text) => !hasControlCharacters(text), oneLine("The test-management user"))
    .nullable()
    .optional()
    .describe("Empty or null clears it"),
  spira_pass: z
    .string()
    .max(
      PROFILE_SPIRA_PASS_MAX_LENGTH,
      `The test-management password or API key is at most ${PROFILE_SPIRA_PASS_MAX_LENGTH} characters`,
    )
    .refine((text) => !/\p{Cc}/u.test(text), oneLine("The test-management password"))
    .nullable()
    .optional()
    .describe("Write-only. Absent keeps the stored one; empty or null removes it"),
  picture: z
    .null()
    .optional()
    .describe("null removes the picture; upload one with PUT /v1/me/picture"),
});
export type ProfileUpdate = z.infer<typeof ProfileUpdateSchema>;

export const PictureUploadedSchema = z.object({
  picture: z.string().describe("URL of the stored picture"),
});
