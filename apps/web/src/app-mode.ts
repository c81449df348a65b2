import { APP_MODE_META, parseAppMode, type AppMode } from "@assay/core";

/**
 * The layout mode the server wrote into index.html for this host. It is read synchronously
 * before the first render, so a data-harmonization site never flashes the full layout.
 */
export function readAppMode(doc: Document = document): AppMode {
  const meta = doc.querySelector<HTMLMetaElement>(`meta[name="${APP_MODE_META}"]`);
  return parseAppMode(meta?.content);
}
