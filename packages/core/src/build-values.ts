import { z } from "zod";

/**
 * Value rules shared by every build payload (spec section 9 and the issue's "Bad input"): a value
 * the server accepts reaches the runner unchanged as an environment variable, so each rule says
 * exactly which characters may pass. Branches follow git's ref rules, hosts are host names or
 * https URLs, numbers are bounded, and no text may hold control characters.
 */

/** Spec section 9: Parallel runners 1 to 10, default 1. */
export const PARALLEL_RUNNERS_MIN = 1;
export const PARALLEL_RUNNERS_MAX = 10;
export const DEFAULT_PARALLEL_RUNNERS = 1;
/** Spec section 9: default branch master. */
export const DEFAULT_BRANCH = "master";
/** Spec section 9: translation and login screenshot runs use branch stage and one runner. */
export const STAGE_BRANCH = "stage";
/** git refuses longer ref names on most file systems; no real branch comes close. */
export const BRANCH_MAX_LENGTH = 255;
export const HOST_MAX_LENGTH = 2048;
/** Longest free-text value a build carries (a DB query, an email list). */
export const BUILD_TEXT_MAX_LENGTH = 10_000;

// C0 and C1 controls, DEL, the invisible format characters (bidi overrides, zero-width joiners)
// and lone surrogates (no UTF-8 form): a value that reads differently from what runs, or cannot
// be stored as it was sent, is refused, never cleaned.
const CONTROL_OR_FORMAT = /[\p{Cc}\p{Cf}\p{Cs}]/u;

/** Whether text holds a control, invisible format or lone surrogate character (U+202E, NUL, ...). */
export function hasControlCharacters(text: string): boolean {
  return CONTROL_OR_FORMAT.test(text);
}

/**
 * git check-ref-format for a branch name, plus a leading '-' (git would read it as an option,
 * e.g. --upload-pack=...). Returns why the name is refused, or null when it is a valid branch.
 */
export function branchProblem(name: string): string | null {
  if (name.length === 0) return "Invalid branch";
  if (name.length > BRANCH_MAX_LENGTH)
    return `A branch name has at most ${BRANCH_MAX_LENGTH} characters`;
  if (hasControlCharacters(name) || /[\s~^:?*[\\]/.test(name))
    return "A branch name cannot contain spaces, control characters or any of ~ ^ : ? * [ \\";
  if (name.startsWith("-")) return "A branch name cannot start with '-'";
  if (name === "@" || name.includes("@{")) return "A branch name cannot be '@' or contain '@{'";
  if (name.includes("..") || name.includes("//"))
    return "A branch name cannot contain '..' or '//'";
  if (name.startsWith("/") || name.endsWith("/") || name.endsWith("."))
    return "A branch name cannot start or end with '/' or end with '.'";
  if (name.split("/").some((part) => part.startsWith(".") || part.endsWith(".lock")))
    return "A branch name's parts cannot start with '.' or end with '.lock'";
  return null;
}

const HOSTNAME =
  /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*(:\d{1,5})?$/i;

/** A host name (optionally with a port) or an https URL without credentials. */
export function isHostOrHttpsUrl(value: string): boolean {
  if (value.length > HOST_MAX_LENGTH || hasControlCharacters(value) || /\s/.test(value))
    return false;
  if (HOSTNAME.test(value)) return true;
  // https, a host name (no user:password@), an optional port, then any printable path.
  const match = /^https:\/\/([^/?#@]+)([/?#][\x21-\x7e]*)?$/.exec(value);
  return match !== null && HOSTNAME.test(match[1]!);
}

export const BranchSchema = z
  .string({ error: "Invalid branch" })
  .superRefine((name, ctx) => {
    const problem = branchProblem(name);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  })
  .describe("Git branch of the test repository (git ref rules; cannot start with '-')");

export const HostSchema = (message: string) =>
  z
    .string({ error: message })
    .refine(isHostOrHttpsUrl, message)
    .describe("A host name (optionally :port) or an https URL");

export const ParallelRunnersSchema = z
  .int({
    error: `Parallel Runners must be a whole number from ${PARALLEL_RUNNERS_MIN} to ${PARALLEL_RUNNERS_MAX}`,
  })
  .min(PARALLEL_RUNNERS_MIN, `Parallel Runners must be at least ${PARALLEL_RUNNERS_MIN}`)
  .max(PARALLEL_RUNNERS_MAX, `Parallel Runners can be at most ${PARALLEL_RUNNERS_MAX}`)
  .default(DEFAULT_PARALLEL_RUNNERS)
  .describe("Runners the suite is split over (1 to 10)");

/** One selector of TEST_TAG: a lower-case tag such as @smoke, or a test id such as TC123. */
const TAG_TOKEN = /^(@[a-z0-9][a-z0-9_.:-]{0,99}|TC\d{1,12})$/;
export const TAG_LIST_MAX = 500;

/** The selectors of a tag list ("@smoke,@login" or "TC1, TC2"), or why the list is refused. */
export function parseTagList(
  text: string,
): { ok: true; tags: string[] } | { ok: false; message: string } {
  const tags = text
    .split(",")
    .map((tag) => tag.trim())
    .filter((tag) => tag !== "");
  if (tags.length === 0) return { ok: false, message: "A tag is required" };
  if (tags.length > TAG_LIST_MAX)
    return { ok: false, message: `At most ${TAG_LIST_MAX} tags per build` };
  const bad = tags.find((tag) => !TAG_TOKEN.test(tag));
  if (bad !== undefined) {
    const shown = JSON.stringify(bad.length > 40 ? `${bad.slice(0, 40)}…` : bad);
    return {
      ok: false,
      message: `${shown} is not a tag: tags are lower-case and start with '@' (e.g. @smoke), or are test ids like TC123`,
    };
  }
  return { ok: true, tags };
}

export const BuildTagListSchema = z
  .string({ error: "A tag list is text, e.g. @smoke,@login" })
  .max(BUILD_TEXT_MAX_LENGTH, `A tag list has at most ${BUILD_TEXT_MAX_LENGTH} characters`)
  .superRefine((text, ctx) => {
    const parsed = parseTagList(text);
    if (!parsed.ok) ctx.addIssue({ code: "custom", message: parsed.message });
  })
  .describe("Comma-separated tags (@smoke) or test ids (TC123), sent as TEST_TAG");

/** A label with letters, digits and simple punctuation (a sub set, a release, an executor name). */
export const LabelSchema = (what: string, max = 200) =>
  z
    .string({ error: `${what} must be text` })
    .min(1, `${what} cannot be empty`)
    .max(max, `${what} has at most ${max} characters`)
    .refine((text) => !hasControlCharacters(text), `${what} cannot contain control characters`);

/**
 * Fields a client may send as "" (or null) when the run type does not use them: the spec's
 * clients post every field of the payload, the unused ones empty. Those read as absent, so a
 * run_all build with tag: "" is a run_all build, while by_tags with tag: "" still earns "A tag is
 * required". spiraCredentialsString is the spec's field the server never takes (credentials come
 * from the profile): empty it is absent, with a value it stays refused as an unknown field.
 */
const BLANK_AS_ABSENT: Record<"frontend" | "backend" | "load", ReadonlySet<string>> = {
  frontend: new Set([
    "tag",
    "subSet",
    "dynamicTag",
    "database_host",
    "executor",
    "releaseId",
    "jiraRelease",
    "translationLanguageCode",
    "translationReportToEmail",
    "numberOfPatientsCreated",
    "spiraCredentialsString",
  ]),
  backend: new Set(["tag", "subSet", "executor"]),
  load: new Set(["host", "query", "team", "executor"]),
};

/** The body with its empty optional fields removed; anything else (unknown fields too) kept. */
export function blankFieldsAsAbsent(
  family: "frontend" | "backend" | "load",
  body: unknown,
): unknown {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return body;
  const optional = BLANK_AS_ABSENT[family];
  return Object.fromEntries(
    Object.entries(body).filter(
      ([key, value]) => !(optional.has(key) && (value === "" || value === null)),
    ),
  );
}
