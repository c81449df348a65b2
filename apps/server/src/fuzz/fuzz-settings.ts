import fc from "fast-check";

/**
 * CI runs a fixed-seed sample; `npm run fuzz` sets FUZZ_RUNS=5000 and FUZZ_SEED=random. A failure
 * prints its seed and path: FUZZ_SEED=<seed> FUZZ_PATH=<path> replays exactly that case.
 */
export const FIXED_SEED = 25;
const DEFAULT_RUNS = 500;

export function fuzzRuns(): number {
  const runs = Number(process.env.FUZZ_RUNS ?? DEFAULT_RUNS);
  return Number.isInteger(runs) && runs > 0 ? runs : DEFAULT_RUNS;
}

export function fuzzSeed(): number {
  const seed = process.env.FUZZ_SEED;
  if (seed === "random") return Math.floor(Math.random() * 2 ** 31);
  return seed !== undefined && Number.isInteger(Number(seed)) ? Number(seed) : FIXED_SEED;
}

/** A generous bound per campaign: each case has its own time limit inside. */
export const campaignTimeout = (runs: number) => 120_000 + runs * 200;

/** Runs a campaign, and on failure names the command that replays the failing case. */
export async function fuzz<T>(
  label: string,
  property: fc.IAsyncPropertyWithHooks<T> | fc.IAsyncProperty<T>,
  runs = fuzzRuns(),
): Promise<void> {
  const seed = fuzzSeed();
  const path = process.env.FUZZ_PATH;
  const details = await fc.check(property, {
    seed,
    numRuns: path ? 1 : runs,
    ...(path && { path }),
    // A shrunk case is easier to read, but shrinking a 10 MB input for long helps no one.
    interruptAfterTimeLimit: 20 * 60_000,
  });
  if (!details.failed) return;
  const replay = `FUZZ_SEED=${details.seed} FUZZ_PATH=${details.counterexamplePath ?? ""}`;
  const error = details.errorInstance;
  throw new Error(
    `${label}: fuzz case failed after ${details.numRuns} runs. Replay it with ${replay} ` +
      `(same test file). Case: ${fc.stringify(details.counterexample).slice(0, 2000)}\n` +
      (error instanceof Error ? `${error.message}\n${error.stack ?? ""}` : String(error)),
  );
}
