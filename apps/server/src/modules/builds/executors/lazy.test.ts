import { describe, expect, it } from "vitest";
import type { Executor } from "./executor.js";
import { LazyExecutor } from "./lazy.js";

const loaded: Executor = {
  kind: "codebuild",
  pollBatchSize: 100,
  start: async (request) => ({
    externalId: `x-${request.buildId}`,
    externalUrl: null,
    state: { phase: "SUBMITTED", status: "IN_PROGRESS" },
  }),
  poll: async (ids) => new Map(ids.map((id) => [id, "missing" as const])),
  stop: async () => undefined,
  logs: {
    tail: async () => ({ text: "last line\n", truncated: false, bytes: 10 }),
    all: async function* () {
      yield "first\n";
      yield "second\n";
    },
  },
};
const request = { buildId: 7, runKey: "r", sourceVersion: "main", env: {}, secrets: {} };
const log = { kind: "cloudwatch" as const, group: "g", stream: "s" };

describe("LazyExecutor", () => {
  it("loads its executor once, on first use, and delegates every call to it", async () => {
    let loads = 0;
    const lazy = new LazyExecutor("codebuild", 100, async () => {
      loads += 1;
      return loaded;
    });
    expect(loads).toBe(0);
    const [a, b] = await Promise.all([lazy.start(request), lazy.poll(["x-7"])]);
    expect(loads).toBe(1);
    expect(a.externalId).toBe("x-7");
    expect(b.get("x-7")).toBe("missing");
    expect((await lazy.logs.tail(log, 100)).text).toBe("last line\n");
    let whole = "";
    for await (const part of lazy.logs.all(log)) whole += part;
    expect(whole).toBe("first\nsecond\n");
    expect(loads).toBe(1);
  });

  it("tries the import again after it failed", async () => {
    let loads = 0;
    const lazy = new LazyExecutor("codebuild", 100, async () => {
      loads += 1;
      if (loads === 1) throw new Error("module not found");
      return loaded;
    });
    await expect(lazy.stop("x-1")).rejects.toThrow("module not found");
    await expect(lazy.stop("x-1")).resolves.toBeUndefined();
    expect(loads).toBe(2);
  });
});
