import { readdirSync, readFileSync } from "node:fs";
import type { ReportFormat } from "@assay/core";
import { FIXTURES_DIR, textFile } from "../modules/ingest/parsers/test-files.js";
import type { ReportFile } from "../modules/ingest/parsers/types.js";

/** The real fixtures each format's mutation campaign starts from. */
export interface Seed {
  label: string;
  format: "auto" | ReportFormat;
  /** Every file of the upload; the one at `target` is mutated. */
  files: { name: string; bytes: Buffer }[];
  target: number;
}

const read = (format: string, name: string) => ({
  name: name.split("/").pop()!,
  bytes: readFileSync(`${FIXTURES_DIR}${format}/${name}`),
});

function singleSeeds(folder: string, format: ReportFormat, ext: string): Seed[] {
  return readdirSync(`${FIXTURES_DIR}${folder}`)
    .filter((name) => name.endsWith(ext))
    .flatMap((name) => [
      { label: `${name} as ${format}`, format, files: [read(folder, name)], target: 0 },
      { label: `${name} as auto`, format: "auto" as const, files: [read(folder, name)], target: 0 },
    ]);
}

const allureFolder = readdirSync(`${FIXTURES_DIR}allure/results`)
  .sort()
  .map((name) => read("allure", `results/${name}`));
const allureJson = allureFolder.flatMap((file, index) =>
  file.name.endsWith(".json") ? [index] : [],
);

const locustFiles = [
  "run_stats.csv",
  "run_failures.csv",
  "run_stats_history.csv",
  "run_exceptions.csv",
].map((name) => read("locust", name));

/** The seeds of each format's campaign. */
export const CAMPAIGNS: Record<string, Seed[]> = {
  junit: singleSeeds("junit", "junit", ".xml"),
  cucumber: singleSeeds("cucumber", "cucumber", ".json"),
  ctrf: singleSeeds("ctrf", "ctrf", ".json"),
  playwright: singleSeeds("playwright", "playwright", ".json"),
  mocha: singleSeeds("mocha", "mocha", ".json"),
  trx: singleSeeds("trx", "trx", ".trx"),
  nunit: singleSeeds("nunit", "nunit", ".xml"),
  xunit: singleSeeds("xunit", "xunit", ".xml"),
  testng: singleSeeds("testng", "testng", ".xml"),
  gotest: singleSeeds("gotest", "gotest", ".json"),
  rspec: singleSeeds("rspec", "rspec", ".json"),
  dart: singleSeeds("dart", "dart", ".json"),
  "allure folder": allureJson.map((target) => ({
    label: `allure folder, ${allureFolder[target]!.name} mutated`,
    format: "allure" as const,
    files: allureFolder,
    target,
  })),
  "allure zip": [
    {
      label: "allure-results.zip",
      format: "allure",
      files: [read("allure", "allure-results.zip")],
      target: 0,
    },
  ],
  locust: [
    { label: "run_stats.csv", format: "locust", files: locustFiles, target: 0 },
    { label: "run_stats.csv (auto)", format: "auto", files: locustFiles, target: 0 },
  ],
};

export const asFiles = (files: Seed["files"]): ReportFile[] =>
  files.map((f) => textFile(f.name, f.bytes));

/** The upload's files with the seed's target replaced by its mutated bytes. */
export const mutatedFiles = (seed: Seed, mutate: (bytes: Buffer) => Buffer): Seed["files"] =>
  seed.files.map((file, index) =>
    index === seed.target ? { ...file, bytes: mutate(file.bytes) } : file,
  );
