/**
 * How the web app is laid out. The server decides per request (host-based mode, spec section 1)
 * and writes it into the served HTML as a meta tag, so the page knows before its first paint.
 */
export const APP_MODES = ["full", "data-harmonization"] as const;
export type AppMode = (typeof APP_MODES)[number];

/** Name of the meta tag in index.html that carries the mode. */
export const APP_MODE_META = "assay-mode";

export function parseAppMode(value: string | null | undefined): AppMode {
  return value === "data-harmonization" ? "data-harmonization" : "full";
}

/**
 * Id of the script element in which the server sends, with a first screen it rendered into the
 * page (a run's results dialog opened cold), the answer it rendered it from: the page takes the
 * server's HTML over with the same data.
 */
export const FIRST_SCREEN_READ_ID = "assay-first-screen-read";
