import {
  matchesFailureFilter,
  type FrontendResult,
  type RunHistory,
  type StatusCounts,
  type TagList,
} from "@assay/core";
import type { ResultFilters } from "../report-url";

/**
 * What the results dialog lists: a run's final results (retried attempts count once) less those
 * the Hide switches, the tag filter and the 'Filter Failure List' leave out. Pure and linear, so
 * a 10,000-result run re-filters well within a frame; the dialog memoizes the inputs.
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

/** The results that count: the last attempt of each test. */
export function finalResults(results: readonly FrontendResult[]): FrontendResult[] {
  return results.filter((result) => result.is_final);
}

/** Counts of the info boxes, from the statuses the server derived (see deriveStatus in core). */
export function countResults(results: readonly FrontendResult[]): StatusCounts {
  const counts: StatusCounts = { total: 0, passed: 0, failed: 0, skipped: 0, unstable: 0 };
  for (const result of results) {
    counts.total++;
    counts[result.derived_status]++;
  }
  return counts;
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

/**
 * Tags the filter offers: every dynamic tag and every tag on the run's results, lower-cased,
 * sorted by name, without the tags that only carry a test id.
 */
export function tagOptions(
  results: readonly FrontendResult[],
  tagTests: TagTests,
  isIdTag: (tag: string) => boolean = () => false,
): string[] {
  const names = new Set(tagTests.keys());
  for (const result of results) {
    for (const tag of result.tags) if (!isIdTag(tag)) names.add(lower(tag));
  }
  names.delete("");
  return [...names].sort();
}

function hasAnyTag(result: FrontendResult, wanted: ReadonlySet<string>, tagTests: TagTests) {
  for (const tag of result.tags) if (wanted.has(lower(tag))) return true;
  for (const tag of wanted) if (tagTests.get(tag)?.has(result.test_id)) return true;
  return false;
}

export interface FilterContext {
  tagTests: TagTests;
  /** Recent history by test id; the failure filter matches nothing until it is known. */
  history: RunHistory | undefined;
}

/**
 * The results left after the Hide switches, the tag filter (a result carrying any selected tag,
 * from its report or a dynamic tag) and the failure filter, in their original order.
 */
export function filterResults(
  results: readonly FrontendResult[],
  filters: ResultFilters,
  context: FilterContext,
): FrontendResult[] {
  const wanted = new Set(filters.tags.map(lower));
  const { failure } = filters;
  return results.filter((result) => {
    if (filters.hidden.has(result.derived_status)) return false;
    if (wanted.size > 0 && !hasAnyTag(result, wanted, context.tagTests)) return false;
    if (failure === null) return true;
    const history = context.history?.[result.test_id];
    return history !== undefined && matchesFailureFilter(failure, history);
  });
}
