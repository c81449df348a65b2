import type { FastifyBaseLogger } from "fastify";
import type { Config } from "../../config.js";
import type { Db } from "../../db/pool.js";
import { newObjectKey, type ObjectStore } from "../../storage/index.js";
import * as demo from "./retention-demo.repo.js";
import { runRetentionPass } from "./retention.pass.js";
import { retentionDeps } from "./retention.register.js";

/**
 * The Setting screen's "last retention pass" on a fresh demo: copies of the demo's oldest runs
 * are moved back 120 and 420 days (with a few screenshots of their own), and a real pass with
 * the example policy removes what it says: the 420-day copies go or keep only their failures,
 * the 120-day ones lose their passed results' steps and screenshots.
 */
export async function runDemoRetention(
  deps: { config: Config; db: Db; objects: ObjectStore },
  log: FastifyBaseLogger,
): Promise<void> {
  const policy = deps.config.retention;
  if (!policy) return;
  const executor = deps.config.catalog.dailyRuns.executor;
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
  const outcome = await runRetentionPass(
    retentionDeps({ db: deps.db, objects: deps.objects, policy }, log),
    "demo",
    "demo",
  );
  log.info({ outcome }, "demo: retention pass over the demo's archive");
}
