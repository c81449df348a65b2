import { describe, expect, it } from "vitest";
import { sourceLink, stackLineInFile } from "./source-link.js";

const REPO = "https://git.example.com/qa/api-tests/blob/master/";

describe("stackLineInFile", () => {
  it("takes the first frame in the test's file, skipping library frames above it", () => {
    const stack = [
      "AssertionError: expected 500 to equal 200",
      "    at Assertion.assert (node_modules/chai/lib/chai/utils/index.js:41:13)",
      "    at Context.<anonymous> (/home/ci/work/test/patients.spec.ts:27:18)",
      "    at helper (/home/ci/work/test/patients.spec.ts:90:3)",
    ].join("\n");
    expect(stackLineInFile(stack, "test/patients.spec.ts")).toBe(27);
  });

  it("reads V8 frames without a function name, Firefox frames, file URLs and Windows paths", () => {
    expect(stackLineInFile("Error\n    at test/a.spec.js:5:1", "test/a.spec.js")).toBe(5);
    expect(stackLineInFile("fn@http://x/test/a.spec.js:8:2", "test/a.spec.js")).toBe(8);
    expect(stackLineInFile("at file:///srv/test/a.spec.js:9:2", "test/a.spec.js")).toBe(9);
    expect(stackLineInFile("at C:\\ci\\test\\a.spec.js:11:4", "test/a.spec.js")).toBe(11);
  });

  it("reads Python tracebacks", () => {
    const stack = [
      "Traceback (most recent call last):",
      '  File "/usr/lib/python3/site-packages/requests/api.py", line 59, in request',
      '  File "/srv/tests/api/test_visits.py", line 42, in test_create_visit',
    ].join("\n");
    expect(stackLineInFile(stack, "tests/api/test_visits.py")).toBe(42);
  });

  it("does not take a file whose name merely ends the same way", () => {
    expect(stackLineInFile("at /srv/test/other-patients.spec.ts:3:1", "patients.spec.ts")).toBe(
      null,
    );
    expect(stackLineInFile("at /srv/test/patients.spec.ts:3:1", "patients.spec.ts")).toBe(3);
  });

  it("answers null when no frame is in the file", () => {
    expect(stackLineInFile("Error: boom\n    at lib/x.js:1:1", "test/a.spec.js")).toBe(null);
    expect(stackLineInFile("", "test/a.spec.js")).toBe(null);
  });
});

describe("sourceLink", () => {
  it("joins the repository URL, the file and the line of the frame in that file", () => {
    const stack = "AssertionError\n    at Context.<anonymous> (test/patients.spec.ts:12:5)";
    expect(sourceLink(REPO, "test/patients.spec.ts", stack)).toBe(
      `${REPO}test/patients.spec.ts#L12`,
    );
  });

  it("links the file without a line when the stack has no frame in it, or no stack", () => {
    expect(sourceLink(REPO, "test/a.spec.ts", "Error\n    at lib/x.js:1:1")).toBe(
      `${REPO}test/a.spec.ts`,
    );
    expect(sourceLink(REPO, "./test/a.spec.ts", null)).toBe(`${REPO}test/a.spec.ts`);
  });

  it("gives no link when the result names no file", () => {
    expect(sourceLink(REPO, null, "at test/a.spec.ts:1:1")).toBe(null);
    expect(sourceLink(REPO, "  ", "at test/a.spec.ts:1:1")).toBe(null);
  });

  it("encodes each path segment, so a file name cannot add a query or change the host", () => {
    expect(sourceLink(REPO, "test/odd name?#.spec.ts", null)).toBe(
      `${REPO}test/odd%20name%3F%23.spec.ts`,
    );
    expect(sourceLink(REPO, "//evil.example.com/x.ts", null)).toBe(`${REPO}evil.example.com/x.ts`);
  });
});
