import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { refuseControlCharacters } from "./build-env.js";
import { BuildRefused } from "./executors/executor.js";

describe("refuseControlCharacters", () => {
  it("refuses a contract value with a line break, naming the variable and not the value", () => {
    const secret = "pass\nASSAY_EOF\nNODE_OPTIONS=--require=/tmp/evil.js";
    const attempt = () =>
      refuseControlCharacters({ BRANCH: "master", SPIRA_CREDENTIALS_STRING: `quinn:${secret}` });
    expect(attempt).toThrow(BuildRefused);
    expect(attempt).toThrow(/^SPIRA_CREDENTIALS_STRING holds a control character/);
    expect(attempt).not.toThrow(/NODE_OPTIONS/);
    for (const value of ["a\rb", "a\tb", "a\u0000b", "a\u001bb"]) {
      expect(() => refuseControlCharacters({ TEST_TAG: value })).toThrow(BuildRefused);
    }
  });

  it("lets every printable value through", () => {
    expect(() =>
      refuseControlCharacters({ TEST_RUN_NAME: 'Nightly – wörk 🔑 $HOME `x` "y"' }),
    ).not.toThrow();
  });
});

describe("the GitHub workflow of docs/runners.md", () => {
  it("writes $GITHUB_ENV with a random delimiter, never a fixed one a value could hold", () => {
    const doc = readFileSync(new URL("../../../../../docs/runners.md", import.meta.url), "utf8");
    const step = /- name: Load the runner contract[\s\S]*?- uses: actions\/checkout/.exec(doc)?.[0];
    if (!step) throw new Error("the workflow's contract step is missing from docs/runners.md");
    expect(step).toMatch(/delimiter="ASSAY_\$\(openssl rand -hex 32\)"/);
    expect(step).toMatch(/<<\\\(\$d\)/);
    expect(step).not.toMatch(/<<ASSAY_EOF/);
  });
});
