import { CAUSES_MAX_IDS, ResultCauseListSchema, type ResultCause } from "@assay/core";
import { getJson } from "../../api/client";

/**
 * The cards of a results dialog ask for their cause one by one as the list shows them; the asks
 * of one moment go to the server as one GET /v1/runs/{key}/failure-causes?ids=... per run (a page
 * of cards, one request), instead of the run's groups answer listing every result.
 */

interface Waiting {
  ids: Set<number>;
  waiters: Map<
    number,
    { resolve: (cause: ResultCause | null) => void; reject: (e: Error) => void }[]
  >;
}

const batches = new Map<string, Waiting>();

/** How long asks gather before they go: the cards of one render mount within it. */
const GATHER_MS = 10;

async function send(runKey: string, batch: Waiting): Promise<void> {
  const ids = [...batch.ids].sort((a, b) => a - b);
  for (let start = 0; start < ids.length; start += CAUSES_MAX_IDS) {
    const chunk = ids.slice(start, start + CAUSES_MAX_IDS);
    try {
      const causes = await getJson(
        `/v1/runs/${encodeURIComponent(runKey)}/failure-causes?ids=${chunk.join(",")}`,
        ResultCauseListSchema,
      );
      const byId = new Map(causes.map((cause) => [cause.resultId, cause]));
      for (const id of chunk) {
        for (const waiter of batch.waiters.get(id) ?? []) waiter.resolve(byId.get(id) ?? null);
      }
    } catch (error) {
      for (const id of chunk) {
        for (const waiter of batch.waiters.get(id) ?? []) waiter.reject(error as Error);
      }
    }
  }
}

/** A failed result's group and type (null: triage has not grouped it), asked with its page's. */
export function loadCause(runKey: string, resultId: number): Promise<ResultCause | null> {
  let batch = batches.get(runKey);
  if (!batch) {
    const fresh: Waiting = { ids: new Set(), waiters: new Map() };
    batches.set(runKey, fresh);
    setTimeout(() => {
      batches.delete(runKey);
      void send(runKey, fresh);
    }, GATHER_MS);
    batch = fresh;
  }
  const gathering = batch;
  return new Promise((resolve, reject) => {
    gathering.ids.add(resultId);
    const list = gathering.waiters.get(resultId) ?? [];
    list.push({ resolve, reject });
    gathering.waiters.set(resultId, list);
  });
}
