import { PENDING_MARKER, type ResultInput } from "@assay/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../../test/test-database.js";
import { NO_FILES, writerFixture } from "../../../../test/writer-fixture.js";
import { runOutcomes } from "../../runs/failures.repo.js";
import { finalizeRun } from "../finalize.repo.js";
import type { ContextOutcomes } from "./result-outcomes.js";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.drop();
});

const { inTransaction, writer } = writerFixture(() => database);

const result = (name: string, fields: Partial<ResultInput> = {}) => ({
  result: { name, status: "passed", suite_path: ["s"], ...fields } as ResultInput,
  files: NO_FILES,
});

/** Contexts as runOutcomes answers them ('' for none), each test once, in one order. */
function sorted(contexts: readonly ContextOutcomes[]) {
  return contexts
    .map(({ platform, branch, site, test_ids, outcomes }) => ({
      context: [platform, branch ?? "", site ?? ""].join("|"),
      tests: test_ids.map((id, i) => `${id}:${outcomes[i]}`).sort(),
    }))
    .sort((a, b) => (a.context < b.context ? -1 : 1));
}

describe("a new run's outcomes handed to flaky tests by its upload", () => {
  it("are what flaky would read back: contexts, retries, skipped and pending left out", async () => {
    const upload = [
      result("steady"),
      result("on linux", { platform: "linux" }),
      result("on linux, failing", { platform: "linux", status: "failed", error_message: "boom" }),
      result("release branch", { branch: "release", nora_site: "eu" }),
      result("skipped", { status: "skipped" }),
      result("pending", { status: "failed", error_message: `${PENDING_MARKER}: JIRA-1` }),
      result("retried", { status: "failed", attempt: 0, error_message: "timeout" }),
      result("failed twice", { status: "failed", attempt: 0, error_message: "x" }),
      result("steady 2"),
      result("retried", { status: "passed", attempt: 1 }),
      result("failed twice", { status: "failed", attempt: 1, error_message: "x" }),
      result("two ids TC901 a", { status: "passed" }),
      result("two ids TC901 b", { status: "failed", error_message: "y" }),
    ];
    const { written, read } = await inTransaction(async (client, runId) => {
      const w = writer(client, runId);
      await w.write(upload);
      const finalized = await finalizeRun(client, runId, { rank: w.ranking(), tally: w.tally });
      return { written: w.written(finalized), read: await runOutcomes(client, runId) };
    });
    expect(sorted(written!.outcomes)).toEqual(sorted(read));
    const all = sorted(read).flatMap((context) => context.tests.map((t) => t.split(":")[1]));
    // 13 results: skipped, pending and the two earlier attempts are no outcomes; the retried
    // test passed on retry (r); TC901's two results are one test, both final
    expect(all.sort().join("")).toBe("fffpppppr".split("").sort().join(""));
    expect(new Set(sorted(read).map((context) => context.context))).toEqual(
      new Set(["||", "|release|eu", "linux||"]),
    );
  });
});
