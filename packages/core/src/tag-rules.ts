/**
 * Dynamic tag rules of spec section 5 "Tags", shared by the server (which enforces them) and the
 * web app (which applies them before a call, so a user learns at once why a tag is refused).
 */

/** Longest tag name, in characters, after trimming. */
export const TAG_NAME_MAX_LENGTH = 100;

// Line breaks, tabs, NUL and the other C0/C1 controls: a tag is one short label on one line, and
// PostgreSQL text cannot hold NUL at all.
const CONTROL_CHARACTER = /\p{Cc}/u;

/**
 * What a dynamic tag is: `@`, then letters, digits and - _ . : / (e.g. @smoke, @rms-9102,
 * @team/payments, @jira:NXL-12 lower-cased). Tags name groups of tests in reports and run
 * filters, so a name that is markup, a sentence or a missing `@` is refused, not stored.
 */
export const TAG_NAME_PATTERN = /^@[\p{L}\p{N}_.:/-]+$/u;
export const TAG_NAME_RULE = "@ then letters, digits and - _ . : /, e.g. @smoke or @rms-9102";

export type TagNameCheck = { ok: true; name: string } | { ok: false; message: string };

/**
 * The stored form of a tag name: trimmed and lower-cased (spec: "Tags are lower-cased"), 1 to
 * TAG_NAME_MAX_LENGTH characters, following TAG_NAME_PATTERN unless it is one of the `existing`
 * tags (stored names). Says why when the name is refused.
 */
export function normalizeTag(raw: string, existing: readonly string[] = []): TagNameCheck {
  const name = raw.trim().toLowerCase();
  if (name.length === 0) return { ok: false, message: "A tag name cannot be empty." };
  if (CONTROL_CHARACTER.test(name)) {
    return {
      ok: false,
      message: "A tag name cannot contain control characters such as line breaks or tabs.",
    };
  }
  // Counted in characters as a person sees them, not UTF-16 units: an emoji is one.
  const length = [...name].length;
  if (length > TAG_NAME_MAX_LENGTH) {
    return {
      ok: false,
      message: `A tag name can have at most ${TAG_NAME_MAX_LENGTH} characters; this one has ${length}.`,
    };
  }
  // A tag made before the rule stays usable (and readable) under its name: only new names must
  // follow it.
  if (!TAG_NAME_PATTERN.test(name) && !existing.includes(name)) {
    return {
      ok: false,
      message: name.startsWith("@")
        ? `“${name}” is not a tag: after the @ use only letters, digits and - _ . : / (no spaces), e.g. @smoke-checkout.`
        : `“${name}” is not a tag: a tag starts with @, then letters, digits and - _ . : /, e.g. @smoke.`,
    };
  }
  return { ok: true, name };
}

/** Whether a stored name follows TAG_NAME_PATTERN; older tags made before the rule may not. */
export function isTagName(name: string): boolean {
  return TAG_NAME_PATTERN.test(name);
}

// Comparison key: the rules compare names lower-cased, and surrounding spaces never count.
const key = (name: string) => name.trim().toLowerCase();

/**
 * Build dialog rule: a tag may be added to the selection only if it is one of the known tags and
 * not selected yet, both compared lower-cased.
 */
export function canAddTag(
  candidate: string,
  knownTags: readonly string[],
  selected: readonly string[],
): boolean {
  const wanted = key(candidate);
  if (wanted === "") return false;
  return knownTags.some((tag) => key(tag) === wanted) && !selected.some((s) => key(s) === wanted);
}

/** Whether a test already carries the tag (compared lower-cased): adding it again is ignored. */
export function isAlreadyOnTest(candidate: string, testTags: readonly string[]): boolean {
  const wanted = key(candidate);
  return testTags.some((tag) => key(tag) === wanted);
}

/**
 * Tag order of every list (spec: "sorted alphabetically by name"): by code point, the order the
 * server's `collate "C"` gives, so a list sorted on either side reads the same.
 */
export function compareTagNames(a: string, b: string): number {
  const left = [...a];
  const right = [...b];
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    const diff = left[i]!.codePointAt(0)! - right[i]!.codePointAt(0)!;
    if (diff !== 0) return diff;
  }
  return left.length - right.length;
}
