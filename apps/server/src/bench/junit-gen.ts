import { createWriteStream, type WriteStream } from "node:fs";
import { once } from "node:events";
import { AREAS, Random, stackTrace, testTitle } from "./random.js";
import type { LocalFile } from "./upload.js";

/*
 * A JUnit XML report like a large UI suite writes (Surefire / jest-junit shapes): a <testsuites>
 * root, one suite per module with properties, nested suites per spec file with timestamps,
 * testcases with classname, time and file; about 8% failures and 2% errors with messages and
 * stack traces, 4% skipped, 0.5% flaky reruns, system-out on some testcases and suites.
 */

const TESTS_PER_FILE = 25;
const FILES_PER_MODULE = 20;

const escapeXml = (text: string): string =>
  text.replace(/[<>&"]/g, (c) =>
    c === "<" ? "&lt;" : c === ">" ? "&gt;" : c === "&" ? "&amp;" : "&quot;",
  );

class Output {
  private parts: string[] = [];
  private size = 0;
  bytes = 0;

  constructor(private readonly stream: WriteStream) {}

  async write(text: string): Promise<void> {
    this.parts.push(text);
    this.size += text.length;
    if (this.size >= 256 * 1024) await this.flush();
  }

  async flush(): Promise<void> {
    const chunk = Buffer.from(this.parts.join(""), "utf8");
    this.parts = [];
    this.size = 0;
    this.bytes += chunk.length;
    if (!this.stream.write(chunk)) await once(this.stream, "drain");
  }

  async end(): Promise<void> {
    await this.flush();
    this.stream.end();
    await once(this.stream, "close");
  }
}

interface Case {
  xml: string;
  failed: boolean;
  error: boolean;
  skipped: boolean;
  time: number;
}

function testcase(random: Random, index: number, classname: string, file: string): Case {
  const name = testTitle(random, index);
  const time = random.int(20, 8000) / 1000;
  const roll = random.next();
  const failed = roll < 0.08;
  const error = !failed && roll < 0.1;
  const skipped = !failed && !error && roll < 0.14;
  const flaky = !failed && !error && !skipped && roll < 0.145;
  const inner: string[] = [];
  if (failed) {
    const message = `expected "${random.int(10, 99)}" to equal "${random.int(10, 99)}" & the badge to show <${random.int(1, 9)}>`;
    inner.push(
      `<failure message="${escapeXml(message)}" type="AssertionError">${escapeXml(
        stackTrace(random, `AssertionError: ${message}`, file, random.int(6, 12)),
      )}</failure>`,
    );
  } else if (error) {
    const message = `Cannot read properties of undefined (reading '${random.pick(["total", "id", "items"])}')`;
    inner.push(
      `<error message="${escapeXml(message)}" type="TypeError">${escapeXml(
        stackTrace(random, `TypeError: ${message}`, file, random.int(6, 12)),
      )}</error>`,
    );
  } else if (skipped) {
    inner.push(`<skipped message="quarantined until the ${random.pick(AREAS)} fix lands"/>`);
  } else if (flaky) {
    const message = "Timeout 5000ms exceeded waiting for selector";
    inner.push(
      `<flakyFailure message="${message}" type="TimeoutError"><stackTrace>${escapeXml(
        stackTrace(random, `TimeoutError: ${message}`, file, 5),
      )}</stackTrace></flakyFailure>`,
    );
  }
  if (random.next() < 0.03) {
    inner.push(
      `<properties><property name="owner" value="team-${random.pick(AREAS)}"/><property name="severity" value="${random.pick(["minor", "normal", "critical"])}"/></properties>`,
    );
  }
  if (failed || error || random.next() < 0.15) {
    const lines = Array.from(
      { length: random.int(2, 6) },
      (_, i) =>
        `[${String(i).padStart(2, "0")}:0${random.int(0, 9)}.${random.int(100, 999)}] ${random.pick(["GET", "POST"])} /api/${random.pick(AREAS)}/${random.int(1, 9999)} -> ${random.pick([200, 200, 201, 304, 500])}`,
    );
    inner.push(`<system-out>${escapeXml(lines.join("\n"))}</system-out>`);
  }
  const open = `<testcase classname="${classname}" name="${escapeXml(name)}" time="${time}" file="${file}"`;
  const xml =
    inner.length === 0
      ? `      ${open}/>\n`
      : `      ${open}>\n        ${inner.join("\n        ")}\n      </testcase>\n`;
  return { xml, failed, error, skipped, time };
}

function suiteTotals(cases: readonly Case[]): string {
  const n = (f: (c: Case) => boolean) => cases.filter(f).length;
  const time = cases.reduce((sum, c) => sum + c.time, 0).toFixed(3);
  return `tests="${cases.length}" failures="${n((c) => c.failed)}" errors="${n((c) => c.error)}" skipped="${n((c) => c.skipped)}" time="${time}"`;
}

/**
 * Writes a JUnit report of `tests` testcases to `file` and returns it as an upload part. `seed`
 * also names the suites, so reports made with different seeds hold different tests.
 */
export async function writeJunitReport(
  file: string,
  tests: number,
  seed: number,
): Promise<LocalFile> {
  const random = new Random(seed);
  const out = new Output(createWriteStream(file));
  await out.write(
    `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="web-e2e" tests="${tests}">\n`,
  );
  const started = Date.UTC(2025, 0, 15, 2, 0, 0);
  let index = 0;
  for (let module = 0; index < tests; module++) {
    const area = AREAS[module % AREAS.length]!;
    const moduleName = `${area}-s${seed}m${module}`;
    const specs: string[] = [];
    const all: Case[] = [];
    for (let spec = 0; spec < FILES_PER_MODULE && index < tests; spec++) {
      const specName = `${area}-flow-${spec}`;
      const path = `tests/${moduleName}/${specName}.spec.ts`;
      const cases: Case[] = [];
      for (let i = 0; i < TESTS_PER_FILE && index < tests; i++) {
        cases.push(testcase(random, index++, `${moduleName}.${specName}`, path));
      }
      all.push(...cases);
      const stamp = new Date(started + index * 400).toISOString().slice(0, 19);
      const suiteOut =
        spec % 10 === 0
          ? `      <system-out>${escapeXml(`browser: chromium 126\nworker: ${random.int(0, 7)}\nbase URL: https://stage.example.com`)}</system-out>\n`
          : "";
      specs.push(
        `    <testsuite name="${specName}" timestamp="${stamp}" hostname="ci-runner-${random.int(1, 8)}" file="${path}" ${suiteTotals(cases)}>\n` +
          cases.map((c) => c.xml).join("") +
          suiteOut +
          `    </testsuite>\n`,
      );
    }
    await out.write(
      `  <testsuite name="${moduleName}" ${suiteTotals(all)}>\n` +
        `    <properties><property name="browser" value="chromium"/><property name="env" value="stage"/><property name="branch" value="main"/><property name="commit" value="${random.hex(40)}"/><property name="ci.job" value="e2e-${module}"/></properties>\n`,
    );
    for (const spec of specs) await out.write(spec);
    await out.write(`  </testsuite>\n`);
  }
  await out.write(`</testsuites>\n`);
  await out.end();
  return { path: file, name: `junit-${tests}.xml`, size: out.bytes };
}
