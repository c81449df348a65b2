import { buffer } from "node:stream/consumers";
import type { Db } from "../../db/pool.js";
import type { ObjectStore } from "../../storage/index.js";
import { listReportImages } from "./report.repo.js";

/**
 * The run's screenshots for the one-file report, as data: URLs. Caps keep the file one that a
 * browser opens and a mail or ticket takes: each image at most IMAGE_CAP, all at most TOTAL_CAP.
 * An image past a cap is left out with a note saying why and where to see it.
 */

export const IMAGE_CAP = 1024 * 1024;
export const TOTAL_CAP = 20 * 1024 * 1024;
/** Raster images only: an SVG can hold script (it runs nothing in <img>, but is not inlined). */
const INLINED_TYPES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);

export type Shot =
  { name: string; dataUrl: string } | { name: string; leftOut: string; link: string };

const mb = (bytes: number) => `${(bytes / 1048576).toFixed(1)} MB`;

/** Each result's screenshots by result id, in the order they were taken. */
export async function reportShots(
  db: Db,
  objects: ObjectStore,
  runId: string,
  publicUrl: string,
): Promise<Map<string, Shot[]>> {
  const shots = new Map<string, Shot[]>();
  let total = 0;
  for (const image of await listReportImages(db, runId)) {
    if (!INLINED_TYPES.has(image.content_type)) continue;
    const link = new URL(`/v1/objects/${image.object_key}`, publicUrl).toString();
    let shot: Shot;
    const size = Number(image.size);
    if (size > IMAGE_CAP) {
      shot = {
        name: image.name,
        leftOut: `${mb(size)}, over the ${mb(IMAGE_CAP)} a report inlines`,
        link,
      };
    } else if (total + size > TOTAL_CAP) {
      shot = {
        name: image.name,
        leftOut: `the report's ${mb(TOTAL_CAP)} of screenshots was reached`,
        link,
      };
    } else {
      const stored = await objects.get(image.object_key);
      if (!stored) continue;
      const bytes = await buffer(stored.body);
      total += bytes.length;
      shot = {
        name: image.name,
        dataUrl: `data:${image.content_type};base64,${bytes.toString("base64")}`,
      };
    }
    shots.set(image.result_id, [...(shots.get(image.result_id) ?? []), shot]);
  }
  return shots;
}
