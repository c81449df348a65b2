import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import { findActiveByTokenHash } from "./builds.repo.js";
import { BuildRefused } from "./executors/executor.js";
import { createHash, randomBytes } from "node:crypto";

/**
 * The runner contract (docs/runners.md): what a launched job receives. ASSAY_URL, ASSAY_RUN_KEY,
 * ASSAY_BUILD_ID, ASSAY_ATTEMPT and ASSAY_TOKEN, plus every payload field as an environment
 * variable under its upper-snake name (tag is TEST_TAG, as the spec's record calls it).
 */

/** Fields whose variable name is not simply the field's name in upper snake case. */
const NAMES: Record<string, string> = { tag: "TEST_TAG", isNextGen: "IS_NEXT_GEN" };

/** nora_site -> NORA_SITE, numberOfPatientsCreated -> NUMBER_OF_PATIENTS_CREATED. */
export function envNameOf(field: string): string {
  return NAMES[field] ?? field.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toUpperCase();
}

/** A payload value as text: lists joined by commas, numbers and booleans as JSON writes them. */
function envValue(value: unknown): string {
  if (Array.isArray(value)) return value.map(String).join(",");
  return String(value);
}

/**
 * Refuses a contract whose value holds a control character: the request schemas refuse them,
 * so this catches values stored before they did (a profile's password with a line break would
 * add variables of its own to a CI job's $GITHUB_ENV). Names the variable, never the value.
 */
export function refuseControlCharacters(variables: Record<string, string>): void {
  for (const [name, value] of Object.entries(variables)) {
    if (/\p{Cc}/u.test(value)) {
      throw new BuildRefused(
        `${name} holds a control character (such as a line break), which no runner variable may hold; correct it (a test-management password in your profile) and start the build again.`,
      );
    }
  }
}

/** Every payload field that has a value, as a variable. */
export function payloadEnv(payload: Record<string, unknown>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [field, value] of Object.entries(payload)) {
    if (value === undefined || value === null) continue;
    env[envNameOf(field)] = envValue(value);
  }
  return env;
}

/** ASSAY_TOKEN's prefix: verifiers know at once that it is a build's token. */
export const BUILD_TOKEN_PREFIX = "assay_build_";

export function newBuildToken(): { token: string; hash: string } {
  const token = BUILD_TOKEN_PREFIX + randomBytes(32).toString("base64url");
  return { token, hash: hashBuildToken(token) };
}

export function hashBuildToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** How sign-in finds the build of an ASSAY_TOKEN (auth's BuildTokens). */
export function buildTokenLookup(db: Kysely<Database>) {
  return {
    prefix: BUILD_TOKEN_PREFIX,
    find: (token: string) => findActiveByTokenHash(db, hashBuildToken(token)),
  };
}
