/**
 * The Failed Summary of the results dialogs (spec sections 2 and 9): failed tests counted per
 * major tag of the catalogue, most failures first, with an 'Unknown' group for the rest.
 */

export const UNKNOWN_TAG_GROUP = "Unknown";

export interface FailedTagGroup {
  /** A major tag of the catalogue, or UNKNOWN_TAG_GROUP. */
  tag: string;
  count: number;
  /** Stable test ids of the failed tests in the group, in result order, without duplicates. */
  testIds: number[];
}

export interface FailedTest {
  test_id: number;
  tags: readonly string[];
}

/** Tags compare lower-cased and with their '@' (reports write "@Login", "login" or "@login"). */
function normalizeTag(tag: string): string {
  const lower = tag.trim().toLowerCase();
  return lower.startsWith("@") ? lower : `@${lower}`;
}

/**
 * Groups failed tests by the first of their tags that is a major tag. Ties in count keep the
 * catalogue's order, and Unknown comes after the major tags it ties with.
 */
export function summarizeFailures(
  failed: readonly FailedTest[],
  majorTags: readonly string[],
): FailedTagGroup[] {
  const order = new Map(majorTags.map((tag, index) => [normalizeTag(tag), index]));
  const groups = new Map<string, { ids: Set<number>; rank: number }>();
  for (const test of failed) {
    const major = test.tags.map(normalizeTag).find((tag) => order.has(tag));
    const key = major ?? UNKNOWN_TAG_GROUP;
    const group = groups.get(key) ?? { ids: new Set(), rank: order.get(key) ?? order.size };
    group.ids.add(test.test_id);
    groups.set(key, group);
  }
  return [...groups.entries()]
    .map(([tag, group]) => ({
      tag,
      count: group.ids.size,
      testIds: [...group.ids],
      rank: group.rank,
    }))
    .sort((a, b) => b.count - a.count || a.rank - b.rank)
    .map(({ tag, count, testIds }) => ({ tag, count, testIds }));
}

/** The Copy Summary text: one "tag: count" line per group, in the summary's order. */
export function formatFailedSummary(groups: readonly FailedTagGroup[]): string {
  return groups.map((group) => `${group.tag}: ${group.count}`).join("\n");
}

/** The per-tag copy: the group's failed ids as TC{id}, comma separated. */
export function formatFailedIds(group: FailedTagGroup): string {
  return group.testIds.map((id) => `TC${id}`).join(", ");
}
