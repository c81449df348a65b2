import { DEFAULT_RUN_PAGE_SIZE } from "@assay/core";
import { DEFAULT_FILTERS, reportHref } from "../runs/report-url";

/** The Test Reports URL that opens a run's results dialog (Backend's with ?be=1). */
export function runHref(family: "frontend" | "backend", key: string): string {
  return reportHref({
    tab: family,
    page: 1,
    size: DEFAULT_RUN_PAGE_SIZE,
    dialog: { kind: family, key, testKey: null },
    filters: DEFAULT_FILTERS,
  });
}

/** A UTC day (YYYY-MM-DD) as month-day, as the charts show dates (spec section 9). */
export function monthDay(date: string): string {
  return date.slice(5, 10);
}
