import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { temporaryFolder } from "../test/temporary-folder.js";
import { periodsFor, readRetentionPolicy, RetentionFileSchema } from "./config-retention.js";
import { ConfigError, EXAMPLE_CONFIG_PATH, loadConfig } from "./config.js";

const dir = temporaryFolder("assay-retention-config-");
/** The example file without its own retention: key, to which each test appends its own. */
const example = readFileSync(EXAMPLE_CONFIG_PATH, "utf8").split(/^retention:/m)[0]!;

function problemsWith(retention: string): string[] {
  const file = path.join(dir, `c${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(file, `${example}\nretention:\n${retention}`);
  try {
    loadConfig({ ASSAY_CONFIG: file }, dir);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe("retention: in assay.config.yaml", () => {
  it("reads periods per family and branch, the first matching rule over the default", () => {
    const file = path.join(dir, "good.yaml");
    writeFileSync(
      file,
      `${example}\nretention:\n  default: { passedDetailsDays: 30, runsDays: 400, failuresDays: 800 }\n  rules:\n    - { family: backend, branch: "release/*", runsDays: 730, failuresDays: 1000 }\n    - { branch: main, passedDetailsDays: 7 }\n`,
    );
    const policy = loadConfig({ ASSAY_CONFIG: file }, dir).retention!;
    expect(policy.schedule).toBe("30 3 * * *");
    expect(periodsFor(policy, "backend", "release/2.1")).toEqual({
      passedDetailsDays: 30,
      runsDays: 730,
      failuresDays: 1000,
    });
    // family does not match: the next rule (branch main) decides
    expect(periodsFor(policy, "frontend", "main")).toEqual({
      passedDetailsDays: 7,
      runsDays: 400,
      failuresDays: 800,
    });
    expect(periodsFor(policy, "frontend", "release/2.1")).toEqual(policy.default);
    expect(periodsFor(policy, "backend", null)).toEqual(policy.default);
  });

  it("keeps everything when the file has no retention: key", () => {
    const file = path.join(dir, "none.yaml");
    writeFileSync(file, example);
    expect(loadConfig({ ASSAY_CONFIG: file }, dir).retention).toBeUndefined();
  });

  it("refuses unknown keys, naming the known ones", () => {
    expect(problemsWith("  default: { keepDays: 30 }\n  nightly: true\n")).toEqual([
      expect.stringMatching(
        /: retention\.default: unknown key "keepDays": use passedDetailsDays, failedDetailsDays, runsDays, failuresDays$/,
      ),
      expect.stringMatching(/: retention: unknown key "nightly": use schedule, default, rules$/),
    ]);
  });

  it("says what to fix in a period that is not a whole number of days", () => {
    const problems = problemsWith(
      '  default: { runsDays: "a year", passedDetailsDays: 0.5, failuresDays: 0 }\n',
    );
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /retention\.default\.runsDays: give a whole number of days \(for example 30\)$/,
        ),
        expect.stringMatching(
          /retention\.default\.passedDetailsDays: give a whole number of days, without a fraction$/,
        ),
        expect.stringMatching(/retention\.default\.failuresDays: give at least 1 day/),
      ]),
    );
  });

  it("refuses a bad schedule and an unknown family", () => {
    expect(
      problemsWith(
        '  schedule: "every night"\n  rules:\n    - { branch: x }\n    - { family: mobile }\n',
      ),
    ).toEqual([
      expect.stringMatching(
        /: retention\.schedule: give a cron expression such as "30 3 \* \* \*" \(03:30 UTC\)$/,
      ),
      expect.stringMatching(/: retention\.rules\[1\]\.family: use one of frontend, backend, load$/),
    ]);
  });

  it("refuses periods that contradict each other and a rule that matches every run", () => {
    const problems = problemsWith(
      "  default: { passedDetailsDays: 60, runsDays: 30, failuresDays: 20 }\n  rules:\n    - { runsDays: 5 }\n",
    );
    expect(problems).toEqual([
      expect.stringMatching(
        /: retention\.default: passedDetailsDays \(60\) is longer than runsDays \(30\): .*; lower passedDetailsDays or raise runsDays$/,
      ),
      expect.stringMatching(
        /: retention\.default: runsDays \(30\) is longer than failuresDays \(20\)/,
      ),
      expect.stringMatching(/: retention\.rules\[0\]: a rule needs family or branch/),
      // the rule's own periods over the default's are checked too
      expect.stringMatching(
        /: retention\.rules\[0\]: passedDetailsDays \(60\) is longer than runsDays \(5\)/,
      ),
    ]);
  });

  it("matches branch patterns with * only, other characters literally", () => {
    const policy = readRetentionPolicy(
      RetentionFileSchema.parse({ rules: [{ branch: "release/1.*", runsDays: 9 }] }),
    )!;
    expect(periodsFor(policy, "frontend", "release/1.4").runsDays).toBe(9);
    expect(periodsFor(policy, "frontend", "release/104").runsDays).toBeUndefined();
    expect(periodsFor(policy, "frontend", "hotfix/release/1.4").runsDays).toBeUndefined();
  });
});
