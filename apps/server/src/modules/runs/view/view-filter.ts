import type { DisplayStatus } from "@assay/core";

/**
 * The results dialogs' filters, over a run's final results as the run view keeps them: the
 * same rules as the web app's result-filter.ts had over the whole run detail. Pure and linear:
 * 100,000 results filter in a few milliseconds, so pages are cut from a fresh pass each time.
 */

/** What a filter needs to know of a run's final results, by index in report order. */
export interface ViewFacts {
  readonly length: number;
  /** The result's id (the cause filters keep results by id). */
  idOf(index: number): number;
  testIdOf(index: number): number;
  statusOf(index: number): DisplayStatus;
  /** The result's report tags, trimmed and lower-cased. */
  tagsOf(index: number): readonly string[];
}

/** Dynamic tags as lower-cased tag name → test ids. */
export type TagTests = ReadonlyMap<string, ReadonlySet<number>>;

export interface ViewFilters {
  hide: ReadonlySet<DisplayStatus>;
  /** Lower-cased: a result stays when it carries any of them (report or dynamic tag). */
  tags: ReadonlySet<string>;
  tagTests: TagTests;
  /** Tests the failure filter keeps; null when there is no failure filter. */
  failureTests: ReadonlySet<number> | null;
  /** Results the cause filters (failure group, defect type) keep; null when there is none. */
  causeResults: ReadonlySet<number> | null;
  /** Lower-cased search text; "" searches nothing. */
  search: string;
  /** The text a result is searched in, lower-cased (asked only when there is a search). */
  searchText: (index: number) => string;
}

function hasAnyTag(facts: ViewFacts, index: number, filters: ViewFilters): boolean {
  for (const tag of facts.tagsOf(index)) if (filters.tags.has(tag)) return true;
  const testId = facts.testIdOf(index);
  for (const tag of filters.tags) if (filters.tagTests.get(tag)?.has(testId)) return true;
  return false;
}

/** Indexes of the results the filters keep, in report order. */
export function keptIndexes(facts: ViewFacts, filters: ViewFilters): number[] {
  const kept: number[] = [];
  const { hide, failureTests, causeResults, search } = filters;
  const byTag = filters.tags.size > 0;
  for (let index = 0; index < facts.length; index++) {
    if (hide.has(facts.statusOf(index))) continue;
    if (byTag && !hasAnyTag(facts, index, filters)) continue;
    if (failureTests && !failureTests.has(facts.testIdOf(index))) continue;
    if (causeResults && !causeResults.has(facts.idOf(index))) continue;
    if (search !== "" && !filters.searchText(index).includes(search)) continue;
    kept.push(index);
  }
  return kept;
}

/** Tags compare trimmed and lower-cased, as the tag filter always has. */
export const lowerTag = (tag: string): string => tag.trim().toLowerCase();
