import { readdirSync, readFileSync } from "node:fs";
import type { ResultInput } from "@assay/core";
import { describe, expect, it } from "vitest";
import type { AllureResult } from "./allure-model.js";
import { planAttempts, plannedResults } from "./allure-plan.js";
import { classifyUpload } from "./index.js";
import { FIXTURES_DIR, fixtureFile, uploadOf } from "./test-files.js";
import type { ReportFile } from "./types.js";

const RESULTS = readdirSync(`${FIXTURES_DIR}allure/results`).sort();

/** The fixture folder, each file counting how often it is opened as a stream. */
function folder(inMemory: boolean) {
  const opens = new Map<string, number>();
  const files = RESULTS.map((name): ReportFile => {
    const file = fixtureFile("allure", `results/${name}`);
    const counted = () => {
      opens.set(file.name, (opens.get(file.name) ?? 0) + 1);
      return file.open();
    };
    if (!inMemory) return { ...file, open: counted };
    const content = readFileSync(`${FIXTURES_DIR}allure/results/${name}`);
    return { ...file, content, open: counted };
  });
  return { files, opens };
}

async function ingestAll(files: ReportFile[]): Promise<ResultInput[]> {
  const plan = await classifyUpload(uploadOf(...files), "auto");
  const all: ResultInput[] = [];
  for await (const report of plan.reports()) for await (const r of report.results) all.push(r);
  return all;
}

type Converted = [string, number, AllureResult];

describe("reading an allure-results folder", () => {
  it("opens no file held in memory, and a file on disk once to sniff it and once to read it", async () => {
    const memory = folder(true);
    const disk = folder(false);
    const fromMemory = await ingestAll(memory.files);
    expect(memory.opens.size).toBe(0);
    expect(await ingestAll(disk.files)).toEqual(fromMemory);
    expect(fromMemory).toHaveLength(7);
    for (const file of disk.files) {
      const reads = /-(result|container)\.json$/.test(file.name) ? 2 : 1;
      expect([file.name, disk.opens.get(file.name)]).toEqual([file.name, reads]);
    }
  });

  it("reads result files again to convert them once past the bound of results kept parsed", async () => {
    const kept = folder(false);
    const results = kept.files.filter((f) => f.name.endsWith("-result.json"));
    const plan = await planAttempts(results);
    expect(plan.every((p) => p.result !== undefined)).toBe(true);
    const once: Converted[] = [];
    for await (const { planned, result } of plannedResults(plan)) {
      expect(planned.result).toBeUndefined();
      once.push([planned.file.name, planned.attempt, result]);
    }

    const bounded = folder(false);
    const size = results[0]!.size + results[1]!.size;
    const again = bounded.files.filter((f) => f.name.endsWith("-result.json"));
    const partly = await planAttempts(again, size);
    const keptNames = partly.filter((p) => p.result).map((p) => p.file.name);
    expect(keptNames.sort()).toEqual([again[0]!.name, again[1]!.name].sort());
    const twice: Converted[] = [];
    for await (const { planned, result } of plannedResults(partly)) {
      twice.push([planned.file.name, planned.attempt, result]);
    }
    expect(twice).toEqual(once);
    for (const file of again) {
      expect(bounded.opens.get(file.name)).toBe(keptNames.includes(file.name) ? 1 : 2);
    }
  });
});
