import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { asFiles, CAMPAIGNS, mutatedFiles, type Seed } from "./fixture-seeds.js";
import { campaignTimeout, fuzz, fuzzRuns } from "./fuzz-settings.js";
import { applyAll, mutations } from "./mutations.js";
import { parseOutcome, type Outcome } from "./parse-outcome.js";

/*
 * Mutations of the real fixtures (issue #25 part 1): every case must parse or be refused with a
 * 4xx naming the file; a neutral mutation (BOM, CRLF) must give the fixture's own counts.
 */

/** Each seed's own outcome, to compare neutral mutations against. */
const originals = new Map<Seed, Outcome>();
async function originalOf(seed: Seed): Promise<Outcome> {
  let outcome = originals.get(seed);
  if (!outcome) {
    outcome = await parseOutcome(asFiles(seed.files), seed.format);
    originals.set(seed, outcome);
  }
  return outcome;
}

describe(`fixture mutations (${fuzzRuns()} cases per format)`, () => {
  for (const [name, seeds] of Object.entries(CAMPAIGNS)) {
    it(
      `${name}: parses or refuses with a 4xx naming the file`,
      async () => {
        for (const seed of seeds) expect((await originalOf(seed)).kind, seed.label).toBe("parsed");
        const tally = { parsed: 0, refused: 0 };
        await fuzz(
          name,
          fc.asyncProperty(fc.constantFrom(...seeds), mutations, async (seed, steps) => {
            const files = mutatedFiles(seed, (bytes) => applyAll(bytes, steps));
            const outcome = await parseOutcome(asFiles(files), seed.format);
            tally[outcome.kind]++;
            if (outcome.kind === "parsed" && steps.every((step) => step.neutral)) {
              expect(outcome).toEqual(await originalOf(seed));
            }
          }),
        );
        process.stdout.write(
          `fuzz ${name}: ${tally.parsed} parsed, ${tally.refused} refused with a 4xx\n`,
        );
        // Mutations that never break a report, or always do, would test nothing.
        if (!process.env.FUZZ_PATH && fuzzRuns() >= 100)
          expect(Math.min(tally.parsed, tally.refused)).toBeGreaterThan(0);
      },
      campaignTimeout(fuzzRuns()),
    );
  }
});
