import { FIRST_SCREEN_READ_ID } from "@assay/core";
import type { QueryClient, QueryKey } from "@tanstack/react-query";
import type { ResponseParser } from "./api/client";
import { TAG_LIST_READ } from "./api/tag-list-read";
import { CATALOG_READ } from "./api/use-catalog";
import { openingRequest, type ReportParams } from "./features/runs/view/opening-read";

/** A GET whose answer a first screen shows, and the query it is kept under. */
export interface FirstScreenRead {
  queryKey: QueryKey;
  path: string;
  schema: ResponseParser<unknown>;
}

/**
 * What the page at Test Reports' `params` and `search` shows first and the server reads to
 * render it (first-screen.tsx): a run's dialog, its first page and the catalogue (its ticket and
 * test id patterns shape the cards), and for the Frontend dialog the dynamic tags (each card's
 * chips); null for any other page, which the server does not render.
 */
export function firstScreenReads(params: ReportParams, search: string): FirstScreenRead[] | null {
  const opening = openingRequest(params, search);
  if (!opening) return null;
  const reads = [opening, CATALOG_READ];
  return opening.family === "frontend" ? [...reads, TAG_LIST_READ] : reads;
}

/** Puts the answers to `reads` (in order) in the cache, as the page's own reads would. */
export function keepFirstScreenAnswers(
  queryClient: QueryClient,
  reads: readonly FirstScreenRead[],
  bodies: readonly unknown[],
): void {
  reads.forEach((read, i) => queryClient.setQueryData(read.queryKey, read.schema.parse(bodies[i])));
}

/**
 * Puts in the cache the answers the server rendered the page's first screen into #root from (a
 * JSON script beside it, in the order of `reads`): true when it did; false when the server
 * rendered none, or sent answers this page cannot read, which then renders from nothing.
 */
export function keepServedAnswers(
  queryClient: QueryClient,
  reads: readonly FirstScreenRead[],
  doc: Document = document,
): boolean {
  const element = doc.getElementById(FIRST_SCREEN_READ_ID);
  if (!element?.textContent) return false;
  try {
    const { bodies } = JSON.parse(element.textContent) as { bodies: unknown[] };
    keepFirstScreenAnswers(queryClient, reads, bodies);
    return true;
  } catch {
    // Rendered again from nothing, the page still shows the same (the journey in
    // e2e/test-reports.e2e.ts fails if the server's screen is not taken over).
    queryClient.clear();
    return false;
  }
}
