import { describe, expect, it } from "vitest";
import { isLostJobCompletion } from "./lost-completion.js";

// The stack pg-pool gives an error of pg-boss's unawaited fail() (captured from the PostgreSQL
// crash campaign's server log), and errors that must still end the process.
function withStack(error: Error, stack: string): Error {
  error.stack = `${error.name}: ${error.message}\n${stack}`;
  return error;
}

describe("isLostJobCompletion", () => {
  it("knows pg-boss's complete or fail lost with the database, and nothing else", () => {
    const inRecovery = () =>
      Object.assign(new Error("the database system is in recovery mode"), { code: "57P03" });
    expect(
      isLostJobCompletion(
        withStack(
          inRecovery(),
          "    at async Manager.fail (/app/node_modules/pg-boss/src/manager.js:493:20)",
        ),
      ),
    ).toBe(true);
    expect(
      isLostJobCompletion(
        withStack(
          Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }),
          "    at async Manager.complete (/app/node_modules/pg-boss/src/manager.js:470:20)",
        ),
      ),
    ).toBe(true);
    // The server stopping: a job still running past Jobs.stop's wait, its pool already ended.
    const poolClosed = () => new Error("Cannot use a pool after calling end on the pool");
    expect(
      isLostJobCompletion(
        withStack(
          poolClosed(),
          "    at /app/node_modules/pg-pool/index.js:45:11\n    at async Manager.fail (/app/node_modules/pg-boss/src/manager.js:493:20)",
        ),
      ),
    ).toBe(true);
    expect(
      isLostJobCompletion(
        withStack(poolClosed(), "    at async ingestUpload (/app/ingest.js:1:1)"),
      ),
    ).toBe(false);
    // The database is down, but elsewhere: a bug of ours to see.
    expect(
      isLostJobCompletion(
        withStack(inRecovery(), "    at async ingestUpload (/app/ingest.js:1:1)"),
      ),
    ).toBe(false);
    // pg-boss's fail() with a real error (not a lost database).
    expect(
      isLostJobCompletion(
        withStack(new TypeError("x is undefined"), "    at async Manager.fail (manager.js:493:20)"),
      ),
    ).toBe(false);
    expect(isLostJobCompletion("a string")).toBe(false);
  });
});
