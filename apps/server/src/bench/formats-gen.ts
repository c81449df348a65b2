import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { AREAS, Random, stackTrace, testTitle } from "./random.js";
import type { LocalFile } from "./upload.js";

/*
 * One generated suite of tests written in three formats (issue #37's speed target): JUnit XML,
 * a .NET TRX as `dotnet test --logger trx` writes it (results, then the definitions) and a
 * `go test -json` stream. The same tests, statuses, messages and output in each, so the uploads
 * differ by the format alone: about 8% failed with a message and stack, 4% skipped, 15% with
 * output.
 */

export type GeneratedFormat = "junit" | "trx" | "gotest";

const TESTS_PER_CLASS = 25;

interface Test {
  className: string;
  name: string;
  status: "passed" | "failed" | "skipped";
  seconds: number;
  message?: string;
  stack?: string;
  output?: string;
}

function* tests(count: number, seed: number): Generator<Test> {
  const random = new Random(seed);
  for (let i = 0; i < count; i++) {
    const area = AREAS[Math.floor(i / TESTS_PER_CLASS / 20) % AREAS.length]!;
    const className = `Shop.${area}.S${seed}C${Math.floor(i / TESTS_PER_CLASS)}Tests`;
    const roll = random.next();
    const status = roll < 0.08 ? "failed" : roll < 0.12 ? "skipped" : "passed";
    const test: Test = {
      className,
      name: testTitle(random, i)
        .replace(/[^\w ]/g, "")
        .replace(/ /g, "_"),
      status,
      seconds: random.int(20, 8000) / 1000,
    };
    if (status === "failed") {
      test.message = `expected "${random.int(10, 99)}" to equal "${random.int(10, 99)}" & <${random.int(1, 9)}>`;
      test.stack = stackTrace(
        random,
        `AssertionError: ${test.message}`,
        `${area}.cs`,
        random.int(6, 12),
      );
    } else if (status === "skipped")
      test.message = `quarantined until the ${random.pick(AREAS)} fix lands`;
    if (status === "failed" || random.next() < 0.15) {
      test.output = Array.from(
        { length: random.int(2, 6) },
        (_, n) =>
          `[0${n}:0${random.int(0, 9)}] GET /api/${random.pick(AREAS)}/${random.int(1, 9999)} -> 200`,
      ).join("\n");
    }
    yield test;
  }
}

const xml = (text: string) =>
  text.replace(/[<>&"]/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;" })[c]!);

function junitCase(t: Test): string {
  const open = `<testcase classname="${t.className}" name="${t.name}" time="${t.seconds}"`;
  const inner: string[] = [];
  if (t.status === "failed") {
    inner.push(
      `<failure message="${xml(t.message!)}" type="AssertionError">${xml(t.stack!)}</failure>`,
    );
  } else if (t.status === "skipped") inner.push(`<skipped message="${xml(t.message!)}"/>`);
  if (t.output) inner.push(`<system-out>${xml(t.output)}</system-out>`);
  return inner.length ? `${open}>${inner.join("")}</testcase>\n` : `${open}/>\n`;
}

const TRX_OUTCOME = { passed: "Passed", failed: "Failed", skipped: "NotExecuted" } as const;
const hms = (seconds: number) => `00:00:${seconds.toFixed(7).padStart(10, "0")}`;

function trxResult(t: Test, id: string): string {
  const open = `<UnitTestResult executionId="e${id}" testId="t${id}" testName="${t.name}" computerName="ci" duration="${hms(t.seconds)}" startTime="2026-11-28T09:00:00.0000000+00:00" endTime="2026-11-28T09:00:01.0000000+00:00" testType="13cdc9d9-ddb5-4fa4-a97d-d965ccfc6d4b" outcome="${TRX_OUTCOME[t.status]}" testListId="8c84fa94-04c1-424b-9868-57a2d4851a1d" relativeResultsDirectory="e${id}"`;
  const parts: string[] = [];
  if (t.output) parts.push(`<StdOut>${xml(t.output)}</StdOut>`);
  if (t.message) {
    const stack = t.stack ? `<StackTrace>${xml(t.stack)}</StackTrace>` : "";
    parts.push(`<ErrorInfo><Message>${xml(t.message)}</Message>${stack}</ErrorInfo>`);
  }
  return parts.length
    ? `${open}><Output>${parts.join("")}</Output></UnitTestResult>\n`
    : `${open} />\n`;
}

const trxDefinition = (t: Test, id: string) =>
  `<UnitTest name="${t.name}" storage="/ci/shop.tests.dll" id="t${id}"><Execution id="e${id}" /><TestMethod codeBase="/ci/Shop.Tests.dll" adapterTypeName="executor://mstestadapter/v2" className="${t.className}" name="${t.name}" /></UnitTest>\n`;

function goEvents(t: Test): string {
  const base = `"Package":"${t.className}","Test":"${t.name}"`;
  const time = `"Time":"2026-11-28T09:00:00.000000000Z"`;
  const lines = [
    `{${time},"Action":"run",${base}}`,
    `{${time},"Action":"output",${base},"Output":${JSON.stringify(`=== RUN   ${t.name}\n`)}}`,
  ];
  const text = [
    t.output,
    t.status === "passed" ? undefined : `    x_test.go:12: ${t.message}`,
    t.stack,
  ]
    .filter(Boolean)
    .join("\n");
  if (text)
    lines.push(`{${time},"Action":"output",${base},"Output":${JSON.stringify(`${text}\n`)}}`);
  const action = t.status === "passed" ? "pass" : t.status === "failed" ? "fail" : "skip";
  lines.push(`{${time},"Action":"${action}",${base},"Elapsed":${t.seconds}}`);
  return `${lines.join("\n")}\n`;
}

/** Writes `count` tests in `format` to `file`, streaming, and returns it as an upload part. */
export async function writeFormatReport(
  format: GeneratedFormat,
  file: string,
  count: number,
  seed: number,
): Promise<LocalFile> {
  const stream = createWriteStream(file);
  let bytes = 0;
  const parts: string[] = [];
  let size = 0;
  const write = async (text: string) => {
    parts.push(text);
    size += text.length;
    if (size < 256 * 1024) return;
    await flush();
  };
  const flush = async () => {
    const chunk = Buffer.from(parts.splice(0).join(""));
    size = 0;
    bytes += chunk.length;
    if (!stream.write(chunk)) await once(stream, "drain");
  };
  if (format === "junit") {
    await write(
      `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="shop" tests="${count}">\n`,
    );
    let current = "";
    for (const t of tests(count, seed)) {
      if (t.className !== current) {
        if (current) await write("</testsuite>\n");
        current = t.className;
        await write(`<testsuite name="${t.className}">\n`);
      }
      await write(junitCase(t));
    }
    await write(current ? "</testsuite>\n</testsuites>\n" : "</testsuites>\n");
  } else if (format === "trx") {
    await write(
      `<?xml version="1.0" encoding="utf-8"?>\n<TestRun id="r" name="bench" xmlns="http://microsoft.com/schemas/VisualStudio/TeamTest/2010">\n<Results>\n`,
    );
    let i = 0;
    for (const t of tests(count, seed)) await write(trxResult(t, String(i++)));
    await write("</Results>\n<TestDefinitions>\n");
    i = 0;
    for (const t of tests(count, seed)) await write(trxDefinition(t, String(i++)));
    await write(
      `</TestDefinitions>\n<ResultSummary outcome="Failed"><Counters total="${count}" /></ResultSummary>\n</TestRun>\n`,
    );
  } else {
    // A package passes unless one of its tests failed (a failing package without a failed test
    // would be a result of its own).
    let current = "";
    let failed = false;
    const end = () =>
      write(`{"Action":"${failed ? "fail" : "pass"}","Package":"${current}","Elapsed":1}\n`);
    for (const t of tests(count, seed)) {
      if (t.className !== current && current) await end();
      if (t.className !== current) failed = false;
      current = t.className;
      failed ||= t.status === "failed";
      await write(goEvents(t));
    }
    if (current) await end();
  }
  await flush();
  stream.end();
  await once(stream, "close");
  const ext = { junit: "xml", trx: "trx", gotest: "json" }[format];
  return { path: file, name: `${format}-${count}.${ext}`, size: bytes };
}
