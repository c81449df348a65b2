import { randomBytes } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { AREAS, Random, stackTrace, testTitle } from "./random.js";
import type { LocalFile } from "./upload.js";

/*
 * An allure-results folder as allure-mocha / allure-playwright write it (the shape of
 * test/fixtures/allure/results): one *-result.json per attempt with labels, steps, parameters and
 * status details; a "before all" *-container.json per suite listing its tests; a "before each"
 * container per test in half of the suites; 1% of tests with a screenshot attachment, and 1%
 * retried (two results sharing a historyId).
 */

const TESTS_PER_SUITE = 50;

export interface AllureFile extends LocalFile {
  /** The suite it belongs to: uploads split by suite keep containers with their tests. */
  suite: number;
}

export interface AllureFolder {
  files: AllureFile[];
  results: number;
}

interface Status {
  status: "passed" | "failed" | "broken" | "skipped";
  statusDetails: { message?: string; trace?: string };
}

function statusOf(random: Random, file: string): Status {
  const roll = random.next();
  if (roll < 0.08) {
    const message = `expected ${random.int(10, 99)} to equal ${random.int(10, 99)}`;
    const trace = stackTrace(random, `AssertionError: ${message}`, file, random.int(6, 12));
    return { status: "failed", statusDetails: { message, trace } };
  }
  if (roll < 0.1) {
    const message = "Cannot read properties of undefined (reading 'total')";
    const trace = stackTrace(random, `TypeError: ${message}`, file, random.int(6, 12));
    return { status: "broken", statusDetails: { message, trace } };
  }
  if (roll < 0.14) return { status: "skipped", statusDetails: { message: "Test skipped" } };
  return { status: "passed", statusDetails: {} };
}

function step(
  name: string,
  start: number,
  status: Status,
  steps: unknown[] = [],
  attachments: unknown[] = [],
) {
  return {
    status: status.status,
    statusDetails: status.statusDetails,
    stage: "finished",
    steps,
    attachments,
    parameters: [],
    start,
    name,
    stop: start + 40,
  };
}

function hook(name: string, start: number, children: string[], uuid: string) {
  const fixture = step(name, start, { status: "passed", statusDetails: {} });
  return { uuid, name, children, befores: [fixture], afters: [] };
}

interface TestPlan {
  suite: number;
  area: string;
  suiteName: string;
  file: string;
  name: string;
  historyId: string;
  testCaseId: string;
}

function resultJson(
  random: Random,
  plan: TestPlan,
  uuid: string,
  start: number,
  attachment?: string,
) {
  const status = statusOf(random, plan.file);
  const passed: Status = { status: "passed", statusDetails: {} };
  const last = status.status === "skipped" ? passed : status;
  const shots = attachment ? [{ name: "screenshot", source: attachment, type: "image/png" }] : [];
  const steps = [
    step("Open the page", start, passed, [step("Wait for the network", start + 5, passed)]),
    step("Fill the form", start + 50, passed, [], shots),
    step("Check the result", start + 100, last),
  ];
  const labels = [
    { name: "language", value: "javascript" },
    { name: "framework", value: "mocha" },
    { name: "host", value: `ci-runner-${random.int(1, 8)}` },
    { name: "thread", value: `pid-${random.int(1000, 9999)}-worker-${random.int(0, 3)}` },
    { name: "package", value: plan.file.replace(/\//g, ".") },
    { name: "parentSuite", value: plan.area },
    { name: "suite", value: plan.suiteName },
    ...(random.next() < 0.3
      ? [
          { name: "epic", value: "Shop" },
          { name: "feature", value: plan.area },
          { name: "tag", value: "smoke" },
        ]
      : []),
  ];
  return {
    uuid,
    name: plan.name,
    historyId: plan.historyId,
    status: status.status,
    statusDetails: status.statusDetails,
    stage: "finished",
    steps,
    attachments: [],
    parameters: [{ name: "browser", value: "chromium" }],
    labels,
    links: [],
    start,
    fullName: `web-e2e:${plan.file}: ${plan.area} > ${plan.suiteName} > ${plan.name}`,
    testCaseId: plan.testCaseId,
    titlePath: ["web-e2e", ...plan.file.split("/"), plan.area, plan.suiteName],
    stop: start + random.int(200, 8000),
  };
}

/** Writes an allure-results folder of `tests` tests (plus 1% retries) under `dir`. */
export async function writeAllureResults(
  dir: string,
  tests: number,
  seed: number,
): Promise<AllureFolder> {
  const random = new Random(seed);
  const folder = path.join(dir, "allure-results");
  await mkdir(folder, { recursive: true });
  const files: AllureFile[] = [];
  const add = async (suite: number, name: string, content: string | Buffer) => {
    const file = path.join(folder, name);
    await writeFile(file, content);
    files.push({
      path: file,
      name: `allure-results/${name}`,
      suite,
      size: Buffer.byteLength(content),
    });
  };
  let start = Date.UTC(2025, 0, 15, 2, 0, 0);
  let results = 0;
  for (let suite = 0, index = 0; index < tests; suite++) {
    const area = AREAS[suite % AREAS.length]!;
    const suiteName = `${area} flow ${suite}`;
    const file = `test/${area}/flow-${suite}.spec.js`;
    const children: string[] = [];
    const eachHook = suite % 2 === 0;
    for (let i = 0; i < TESTS_PER_SUITE && index < tests; i++, index++) {
      const plan: TestPlan = {
        suite,
        area,
        suiteName,
        file,
        name: testTitle(random, index),
        historyId: `${random.hex(32)}:${random.hex(32)}`,
        testCaseId: random.hex(32),
      };
      const attempts = random.next() < 0.01 ? 2 : 1;
      for (let attempt = 0; attempt < attempts; attempt++) {
        const uuid = random.uuid();
        let attachment: string | undefined;
        if (random.next() < 0.01) {
          attachment = `${random.uuid()}-attachment.png`;
          await add(
            suite,
            attachment,
            Buffer.concat([Buffer.from("89504e470d0a1a0a", "hex"), randomBytes(8 * 1024)]),
          );
        }
        start += random.int(100, 3000);
        await add(
          suite,
          `${uuid}-result.json`,
          JSON.stringify(resultJson(random, plan, uuid, start, attachment)),
        );
        children.push(uuid);
        results++;
        if (eachHook) {
          const container = random.uuid();
          await add(
            suite,
            `${container}-container.json`,
            JSON.stringify(
              hook('"before each" hook: open the shop', start - 50, [uuid], container),
            ),
          );
        }
      }
    }
    const container = random.uuid();
    await add(
      suite,
      `${container}-container.json`,
      JSON.stringify(hook('"before all" hook: seed the catalogue', start, children, container)),
    );
  }
  return { files, results };
}
