import type { Config } from "../../config.js";
import { newObjectKey } from "../../storage/index.js";
import * as demo from "./retention-demo.repo.js";
import { runRetentionPass, type RetentionDeps } from "./retention.pass.js";

/**
 * The Setting screen's "last retention pass" on a fresh demo: copies of the demo's oldest runs
 * are moved back 120 and 420 days (with a few screenshots of their own), and a real pass with
 * the example policy removes what it says: the 420-day copies go or keep only their failures,
 * the 120-day ones lose their passed results' steps and screenshots.
 */
export async function runDemoRetention(
  deps: RetentionDeps,
  config: Pick<Config, "catalog">,
): Promise<void> {
  if (!deps.policy) return;
  const executor = config.catalog.dailyRuns.executor;
  const sources = await demo.oldestDailyRuns(deps.db.pool, executor, 4);
  const png = Buffer.alloc(24_000, 0x89);
  for (const [i, source] of sources.entries()) {
    const daysBack = i < 2 ? 420 : 120;
    const id = await demo.copyRunBack(
      deps.db.pool,
      source.key,
      `${source.key}-archive-${daysBack}`,
      daysBack,
    );
    if (id === null) continue;
    for (const resultId of await demo.passedResultIds(deps.db.pool, id, 10)) {
      const key = newObjectKey("demo-archive", "png");
      await deps.objects.put(key, png, { contentType: "image/png" });
      await demo.addAttachment(deps.db.pool, resultId, key, png.length);
    }
  }
  const outcome = await runRetentionPass(deps, "demo", "demo");
  deps.log.info({ outcome }, "demo: retention pass over the demo's archive");
}
