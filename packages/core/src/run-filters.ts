import { z } from "zod";

/**
 * Filters of the run lists (issue 32 item 15): the same names in the API's query string and in
 * the Test Reports URL, so a filtered list is a link. Each filter narrows; none: every run.
 */

export const RUN_PLATFORMS = ["legacy", "nextGen"] as const;
export const RUN_REGIONS = ["US", "CHINA"] as const;
export const RUN_STATUSES = ["failed", "passed"] as const;
export const RUN_SEARCH_MAX = 200;

const text = (what: string, max: number) =>
  z
    .string({ error: `${what} is text` })
    .trim()
    .min(1, `${what} cannot be empty: leave it out to see every run`)
    .max(max, `${what} has at most ${max} characters`);

export const RunFiltersShape = {
  platform: z
    .enum(RUN_PLATFORMS, { error: "platform is legacy or nextGen" })
    .optional()
    .describe("UI runs: legacy or nextGen"),
  region: z
    .enum(RUN_REGIONS, { error: "region is US or CHINA" })
    .optional()
    .describe("UI runs: US or CHINA"),
  site: text("site", 2048)
    .optional()
    .describe("UI runs: the site (nora_site); API and load runs: the env"),
  branch: text("branch", 255).optional().describe("The branch the run was made from"),
  status: z
    .enum(RUN_STATUSES, { error: "status is failed (runs with failures) or passed (none)" })
    .optional()
    .describe("failed: runs with at least one failure; passed: runs without"),
  from: z.iso
    .date("from is a day written YYYY-MM-DD")
    .optional()
    .describe("Runs created on this UTC day or later"),
  to: z.iso
    .date("to is a day written YYYY-MM-DD")
    .optional()
    .describe("Runs created on this UTC day or earlier"),
  q: text("The search", RUN_SEARCH_MAX)
    .optional()
    .describe("Part of the run's name or run key (case-insensitive)"),
};

export type RunFilters = {
  platform?: (typeof RUN_PLATFORMS)[number];
  region?: (typeof RUN_REGIONS)[number];
  site?: string;
  branch?: string;
  status?: (typeof RUN_STATUSES)[number];
  from?: string;
  to?: string;
  q?: string;
};

/** Why a set of filters cannot match anything as written, or null. */
export function runFiltersProblem(filters: RunFilters): string | null {
  if (filters.from && filters.to && filters.from > filters.to)
    return `The date range ends (${filters.to}) before it starts (${filters.from}): swap them`;
  return null;
}

export const RUN_FILTER_NAMES = Object.keys(RunFiltersShape) as (keyof RunFilters)[];
