import type { Instance } from "@assay/core";
import type { Db } from "../../db/pool.js";
import * as repo from "./instance.repo.js";

/** What GET /v1/instance tells the web app: whether the runs are demo data. */
export async function getInstance(db: Db): Promise<Instance> {
  const row = await repo.readInstance(db);
  return { demo: row.demo, demo_loaded_at: row.demo_loaded_at?.toISOString() ?? null };
}

/** Marks the data as demo data as soon as the demo load starts, so a partial load says so too. */
export async function markDemoStarted(db: Db): Promise<void> {
  await repo.setDemo(db, null);
}

/** Records when the demo load completed. */
export async function markDemoLoaded(db: Db, at = new Date()): Promise<void> {
  await repo.setDemo(db, at);
}
