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
 * The answers the server read to render the page's first screen into #root, in the order of
 * firstScreenReads, or undefined when it rendered none: the page then renders from nothing.
 */
export function readServedAnswers(doc: Document = document): unknown[] | undefined {
  const element = doc.getElementById(FIRST_SCREEN_READ_ID);
  if (!element?.textContent) return undefined;
  return (JSON.parse(element.textContent) as { bodies: unknown[] }).bodies;
}
