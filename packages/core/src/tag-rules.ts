/**
 * Dynamic tag rules of spec section 5 "Tags", shared by the server (which enforces them) and the
 * web app (which applies them before a call, so a user learns at once why a tag is refused).
 */

/** Longest tag name, in characters, after trimming. */
export const TAG_NAME_MAX_LENGTH = 100;

// Line breaks, tabs, NUL and the other C0/C1 controls: a tag is one short label on one line, and
// PostgreSQL text cannot hold NUL at all.
const CONTROL_CHARACTER = /\p{Cc}/u;

export type TagNameCheck = { ok: true; name: string } | { ok: false; message: string };

/**
 * The stored form of a tag name: trimmed and lower-cased (spec: "Tags are lower-cased"), 1 to
 * TAG_NAME_MAX_LENGTH characters, without control characters. Says why when the name is refused.
 */
export function normalizeTag(raw: string): TagNameCheck {
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
  return { ok: true, name };
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
