import type { TriageDeps } from "../triage/pending.service.js";
import { runFailureGroups } from "../triage/triage.service.js";
import type { FailureGroup } from "./notify.messages.js";
import * as repo from "./notify.repo.js";
import type { FailureGroupSource } from "./notify.service.js";

/** Tests named under a group; the rest are counted ("…and 12 more"). */
const TESTS_PER_GROUP = 5;

/**
 * A run's failure groups as triage files them (fingerprints of type, normalised message and top
 * frame). "New" is what triage calls new or a regression: first seen in this run, or back after
 * the job's last runs went without it.
 */
export function triageFailureGroups(triage: TriageDeps): FailureGroupSource {
  const { db } = triage;
  return {
    async groups(runKey, { onlyNew, limit }) {
      const all = await runFailureGroups(triage, runKey);
      const chosen = all.filter((g) => !onlyNew || g.isNew || g.isRegression).slice(0, limit);
      // A group may hold thousands of tests: only the names shown are read.
      const shown = chosen.map((g) => g.tests.slice(0, TESTS_PER_GROUP));
      const names = await repo.testNames(db.pool, shown.flat());
      return chosen.map((group, i): FailureGroup => {
        const tests = shown[i]!.map((id) => names.get(id) ?? `test ${id}`);
        const more = group.tests.length - tests.length;
        const mark = group.isNew ? " (new)" : group.isRegression ? " (regression)" : "";
        const title = group.errorType ? `${group.errorType}: ${group.message}` : group.message;
        return {
          title: `${title}${mark}`,
          tests: more > 0 ? [...tests, `…and ${more} more`] : tests,
        };
      });
    },
  };
}
