import { performance } from "node:perf_hooks";
import { createDb, type Db } from "../db/pool.js";
import { listTestHistory, listTopFails } from "../modules/runs/history.repo.js";
import { listEarlierHistory, listRunFinalResults } from "../modules/runs/run-history.repo.js";
import { findResult, listFrontendResults } from "../modules/runs/results.repo.js";
import { listTaggedFailures } from "../modules/runs/runs.repo.js";
import { eachFrontendViewRow } from "../modules/runs/view/run-view.repo.js";
import { newFailures } from "../modules/settings/run-summary.repo.js";
import { median, say } from "./output.js";

/*
 * `node dist/bench/storage-plans.js URL`: the reads of `results` as the repositories send them,
 * against a loaded bench database (query-data.ts), each with its median time over 5 calls and
 * the indexes (and partitions) its plan reads, from EXPLAIN ANALYZE of the statement it sent.
 * Which index no read uses, and whether a read prunes partitions, is read here.
 */

interface Statement {
  text: string;
  values: unknown[];
}

function capture(db: Db): () => Statement[] {
  let sent: Statement[] = [];
  const wrapped = new WeakSet<object>();
  db.pool.on("acquire", (client) => {
    if (wrapped.has(client)) return;
    wrapped.add(client);
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    client.query = ((...args: unknown[]) => {
      if (typeof args[0] === "string" && !args[0].startsWith("EXPLAIN"))
        sent.push({ text: args[0], values: (args[1] as unknown[]) ?? [] });
      return query(...args);
    }) as typeof client.query;
  });
  return () => {
    const taken = sent;
    sent = [];
    return taken;
  };
}

async function scansOf(db: Db, statement: Statement): Promise<string> {
  const { rows } = await db.pool.query<{ "QUERY PLAN": string }>(
    `EXPLAIN (ANALYZE, COSTS OFF) ${statement.text}`,
    statement.values,
  );
  const plan = rows.map((r) => r["QUERY PLAN"]);
  const scans = new Map<string, number>();
  for (const line of plan) {
    if (/never executed/.test(line)) continue;
    const m =
      /(Seq Scan|Index Scan|Index Only Scan|Bitmap Index Scan)(?: Backward)? (?:using (\S+) )?on (\S+)/.exec(
        line,
      );
    if (!m) continue;
    const key = `${m[1]} ${m[2] ?? ""} ${m[3]}`.replace(/  +/g, " ");
    scans.set(key, (scans.get(key) ?? 0) + 1);
  }
  const time = plan.find((l) => l.startsWith("Execution Time")) ?? "";
  return [...scans].map(([k, n]) => (n > 1 ? `${k} x${n}` : k)).join("; ") + ` (${time})`;
}

async function main(): Promise<void> {
  const url = process.argv[2];
  if (!url) throw new Error("usage: storage-plans.js DATABASE_URL");
  const db = createDb(url, 1);
  const taken = capture(db);
  try {
    const { rows } = await db.pool.query<{ id: string; key: string }>(
      "SELECT id, test_run_key AS key FROM runs ORDER BY created_at DESC LIMIT 1",
    );
    const runId = Number(rows[0]!.id);
    const testId = 1_000_001;
    const anchors = Array.from({ length: 200 }, (_, i) => ({
      testId: 1_000_001 + i,
      anchor: new Date(),
    }));
    const reads: [string, () => Promise<unknown>][] = [
      ["history", () => listTestHistory(db, testId, { limit: 100 })],
      ["top fails (1 month)", () => listTopFails(db, 1, 50)],
      ["run results (frontend)", () => listFrontendResults(db, runId)],
      ["run view rows", () => eachFrontendViewRow(db, runId, () => undefined)],
      ["one result", () => findResult(db, runId, "a1b2")],
      ["run final results", () => listRunFinalResults(db, runId)],
      ["earlier history (200 tests)", () => listEarlierHistory(db, runId, anchors, 5)],
      ["new failures", () => newFailures(db, { id: runId, family: "frontend" }, 20)],
      ["tagged failures", () => listTaggedFailures(db, [runId, runId - 1], [testId])],
    ];
    for (const [label, read] of reads) {
      const times: number[] = [];
      for (let i = 0; i < 5; i++) {
        taken();
        const started = performance.now();
        await read();
        times.push(performance.now() - started);
      }
      const statements = taken().filter((s) => /results/.test(s.text));
      const plans = await Promise.all(statements.map((s) => scansOf(db, s)));
      say(`${label}: ${median(times).toFixed(1)} ms\n  ${plans.join("\n  ")}`);
    }
  } finally {
    await db.close();
  }
}

main().catch((error: unknown) => {
  say(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exitCode = 1;
});
