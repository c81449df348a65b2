import type { DiffRun, DiffTest, PreviousRun, RunDiff } from "@assay/core";
import type { DiffSettings } from "../../config-diff.js";
import type { Db } from "../../db/pool.js";
import { AppError, notFound } from "../../errors.js";
import * as repo from "./diff.repo.js";

const FAMILY_WORDS: Record<DiffRunRow["family"], string> = {
  frontend: "a frontend (UI) run",
  backend: "an API (backend) run",
  load: "a load run",
};
type DiffRunRow = repo.DiffRunRow;

type Sections = Omit<RunDiff, "a" | "b" | "slowerThan">;

const FLAGS = {
  newFailures: "new_failure",
  fixed: "fixed",
  stillFailing: "still_failing",
  newlyFlaky: "newly_flaky",
  slower: "slower",
  added: "added",
  removed: "removed",
} as const satisfies Record<keyof Sections, keyof repo.DiffRow>;

/**
 * The rows of the diff query into the answer's sections, in the query's order (by name), each
 * test once per section (a test a run holds twice comes in one row per pair of its results).
 */
function sectionsOf(rows: readonly repo.DiffRow[]): Sections {
  const sections: Sections = {
    newFailures: [],
    fixed: [],
    stillFailing: [],
    newlyFlaky: [],
    slower: [],
    added: [],
    removed: [],
  };
  const seen = new Set<string>();
  for (const row of rows) {
    const test: DiffTest = {
      testId: row.test_id,
      name: row.name,
      testRunTestId: row.test_run_test_id,
    };
    for (const [section, flag] of Object.entries(FLAGS) as [keyof Sections, keyof repo.DiffRow][]) {
      if (!row[flag] || seen.has(`${section} ${row.test_id}`)) continue;
      seen.add(`${section} ${row.test_id}`);
      if (section === "slower") {
        sections.slower.push({ ...test, durationA: row.ms_a!, durationB: row.ms_b! });
      } else sections[section].push(test);
    }
  }
  // The most time lost first.
  sections.slower.sort((x, y) => y.durationB - y.durationA - (x.durationB - x.durationA));
  return sections;
}

function toDiffRun(row: DiffRunRow): DiffRun {
  return {
    key: row.key,
    name: row.name,
    family: row.family,
    createdAt: row.created_at.toISOString(),
    total: row.total,
  };
}

async function requireRun(db: Db, key: string): Promise<DiffRunRow> {
  const run = await repo.findRunByKey(db, key);
  if (!run) throw notFound(`No run with key ${key}: check the key in the run list.`);
  return run;
}

const cannotCompare = (message: string) => new AppError(400, "cannot_compare", message);

/**
 * What changed from run `aKey` to run `bKey`: new failures, fixed, still failing, newly flaky,
 * slower, added and removed tests. Two runs of different families, a run with itself and load
 * runs (endpoints, not tests: their trend compares them) are refused in words.
 */
export async function diffRuns(
  db: Db,
  settings: DiffSettings,
  aKey: string,
  bKey: string,
): Promise<RunDiff> {
  if (aKey === bKey) {
    throw cannotCompare(`Both keys are ${aKey}: a diff compares two different runs.`);
  }
  const [a, b] = await Promise.all([requireRun(db, aKey), requireRun(db, bKey)]);
  if (a.family !== b.family) {
    throw cannotCompare(
      `Run ${aKey} is ${FAMILY_WORDS[a.family]} and run ${bKey} is ${FAMILY_WORDS[b.family]}: ` +
        "a diff compares two runs of one family. Pick two runs from the same list.",
    );
  }
  if (a.family === "load") {
    throw cannotCompare(
      "Load runs have endpoints, not tests: compare them in the load trend " +
        `(GET /v1/load-test-runs/${bKey}/trends, or 'Trend' in the load run's dialog).`,
    );
  }
  const slowerThan = { percent: settings.slowerPercent, ms: settings.slowerMs };
  const rows = await repo.diffOfRuns(db, a.id, b.id, slowerThan);
  return { a: toDiffRun(a), b: toDiffRun(b), slowerThan, ...sectionsOf(rows) };
}

/** The latest earlier run of `key`'s job (family, executor, branch, site, environment, platform). */
export async function previousRun(db: Db, key: string): Promise<PreviousRun> {
  const run = await requireRun(db, key);
  const previous = await repo.previousRunOfJob(db, run);
  return { previous: previous ? toDiffRun(previous) : null };
}
