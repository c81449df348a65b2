import { FAILURE_FILTERS, type DisplayStatus, type FailureFilter } from "@assay/core";
import { HIDEABLE_STATUSES } from "../report-url";

/** What a click in a results dialog changes of its view's filters. */
interface ClickableFilters {
  hidden: ReadonlySet<DisplayStatus>;
  failure: FailureFilter | null;
}

/** The Hide switches each dialog shows: the Backend dialog's one is Hide failed. */
const SWITCHES = { frontend: HIDEABLE_STATUSES, backend: ["failed"] } as const;

/**
 * The filters one click away from `filters`: each Hide switch of the dialog turned the other
 * way, and in the Frontend dialog each other choice of Filter Failure List. Their first pages
 * are asked for once the list on screen is in (use-run-view.ts), so that a click finds its list
 * ready rather than waiting for the server's pass over the run (docs/performance.md, "Large runs").
 */
export function filtersOneClickAway<F extends ClickableFilters>(
  family: keyof typeof SWITCHES,
  filters: F,
): F[] {
  const switched = SWITCHES[family].map((status) => {
    const hidden = new Set(filters.hidden);
    if (!hidden.delete(status)) hidden.add(status);
    return { ...filters, hidden };
  });
  if (family === "backend") return switched;
  const failures = [null, ...FAILURE_FILTERS.map((filter) => filter.value)]
    .filter((failure) => failure !== filters.failure)
    .map((failure) => ({ ...filters, failure }));
  return [...switched, ...failures];
}
