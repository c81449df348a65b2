import type { ReportFormat } from "@assay/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildZip } from "../modules/ingest/parsers/allure-test-zip.js";
import { textFile } from "../modules/ingest/parsers/test-files.js";
import { campaignTimeout, fuzz, fuzzRuns } from "./fuzz-settings.js";
import { parseOutcome } from "./parse-outcome.js";
import { allureResults, model, modelCounts, reportFiles, type Model } from "./report-models.js";

/*
 * Valid reports generated from a model (issue #25 part 1): each must parse with exactly the
 * model's counts, whether the format is named or detected.
 */

const withTests = model.filter((suites) => suites.some((suite) => suite.tests.length > 0));

interface Campaign {
  label: string;
  format: ReportFormat;
  files(suites: Model): { name: string; text: string | Buffer }[];
}

const CAMPAIGNS: Campaign[] = [
  ...(["testsuites", "testsuite", "surefire-errors"] as const).map((dialect) => ({
    label: `junit (${dialect})`,
    format: "junit" as const,
    files: (suites: Model) => reportFiles("junit", suites, dialect),
  })),
  ...(
    [
      "cucumber",
      "ctrf",
      "playwright",
      "mocha",
      "allure",
      "locust",
      "trx",
      "nunit",
      "xunit",
      "testng",
      "gotest",
      "rspec",
      "dart",
    ] as const
  ).map((format) => ({
    label: format === "allure" ? "allure folder" : format,
    format,
    files: (suites: Model) => reportFiles(format, suites),
  })),
  {
    label: "allure zip",
    format: "allure",
    files: (suites) => [
      {
        name: "allure-results.zip",
        text: buildZip(allureResults(suites).map((f) => ({ name: f.name, data: f.text }))),
      },
    ],
  },
];

/** Locust reports endpoints rather than tests: a stats row per model test, plus Aggregated. */
function expected(format: ReportFormat, suites: Model) {
  const counts = modelCounts(suites);
  if (format !== "locust") return counts;
  const endpoints = counts.passed + counts.failed + counts.skipped + 1;
  return { passed: 0, failed: 0, skipped: 0, endpoints };
}

describe(`reports generated from a model (${fuzzRuns()} cases per format)`, () => {
  for (const { label, format, files } of CAMPAIGNS) {
    it(
      `${label}: parses with exactly the model's counts`,
      async () => {
        await fuzz(
          label,
          fc.asyncProperty(withTests, fc.boolean(), async (suites, named) => {
            const upload = files(suites).map((f) => textFile(f.name, f.text));
            const outcome = await parseOutcome(upload, named ? format : "auto");
            expect(outcome).toEqual({ kind: "parsed", counts: expected(format, suites) });
          }),
        );
      },
      campaignTimeout(fuzzRuns()),
    );
  }
});
