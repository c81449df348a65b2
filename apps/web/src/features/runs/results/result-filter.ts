import type { TagList } from "@assay/core";

/**
 * What the result cards need of the dynamic tags and the catalogue. The filters themselves are
 * the server's (GET .../view, apps/server/src/modules/runs/view/view-filter.ts).
 */

/** Tests of each dynamic tag, by lower-cased tag name. */
export type TagTests = ReadonlyMap<string, ReadonlySet<number>>;

const lower = (tag: string) => tag.trim().toLowerCase();

/** The dynamic tags of GET /v1/dtag as tag name → test ids. */
export function tagTestsOf(tags: TagList | undefined): TagTests {
  const map = new Map<string, ReadonlySet<number>>();
  for (const [name, entry] of Object.entries(tags?.byTag ?? {})) {
    map.set(lower(name), new Set(entry.test_ids));
  }
  return map;
}

/** The dynamic tags a test is in, by name, from the tag → tests map. */
export function dynamicTagsOf(tagTests: TagTests): (testId: number) => string[] {
  const names = [...tagTests.keys()].sort();
  return (testId) => names.filter((name) => tagTests.get(name)?.has(testId));
}

/**
 * Whether a tag only carries a stable test id ("@TC123" under the catalogue's testIdPattern):
 * such a tag names one test, so it is no use as a filter or a chip beside "TC123".
 */
export function idTagMatcher(testIdPattern: string | undefined): (tag: string) => boolean {
  if (!testIdPattern) return () => false;
  const whole = new RegExp(`^@?(?:${testIdPattern})$`, "i");
  return (tag) => whole.test(tag.trim());
}
