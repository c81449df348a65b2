import type { DefectType } from "@assay/core";
import type { Db } from "../db/pool.js";
import {
  retriage,
  backfillRuns,
  type TriageSettings,
} from "../modules/triage/fingerprints.service.js";
import { setGroupDefect } from "../modules/triage/defects.service.js";
import { failureGroups } from "../modules/triage/triage.service.js";
import * as repo from "./demo.repo.js";

/*
 * Triage in the demo (issue 34): the runs' failures are grouped once their runs are dated in
 * the past; a QA lead has classified the most frequent causes up to yesterday, so last night's
 * runs show automatic decisions taken from hers, causes first seen last night as new, and the
 * rest to investigate.
 */

const CLASSIFIED: readonly { type: DefectType; comment: string; bugs: string[] }[] = [
  { type: "product_bug", comment: "Checkout API answers 500 under load", bugs: ["NXL-2041"] },
  { type: "automation_bug", comment: "Selector changed with the new header", bugs: [] },
  { type: "system_issue", comment: "Staging database restarts at night", bugs: ["OPS-311"] },
];

const DAY_MS = 86_400_000;

export async function demoTriage(
  db: Db,
  settings: TriageSettings,
  now = new Date(),
): Promise<void> {
  const yesterday = new Date(now.getTime() - DAY_MS);
  await retriage(db, settings, await repo.lastRunIdBefore(db, yesterday));
  const { groups } = await failureGroups(
    { db, settings },
    { since: new Date(now.getTime() - 60 * DAY_MS).toISOString().slice(0, 10) },
    now,
  );
  const recurring = groups.filter((group) => group.runs >= 3).slice(0, CLASSIFIED.length);
  for (const [i, group] of recurring.entries()) {
    const decision = CLASSIFIED[i];
    if (decision) await setGroupDefect(db, group.id, decision, "qa.lead@example.com", now);
  }
  await backfillRuns(db, settings);
}
