import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../test/test-database.js";
import { Jobs, jobQueue } from "./jobs.js";

let database: TestDatabase;
const started: Jobs[] = [];
const log = pino({ level: "silent" });

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  for (const jobs of started) await jobs.stop();
  await database.drop();
});

async function startJobs(): Promise<Jobs> {
  const jobs = await Jobs.start(database.db.pool, log);
  started.push(jobs);
  return jobs;
}

async function until(condition: () => boolean, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error("timed out waiting for the job");
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("Jobs", () => {
  it("hands a sent job's data to the queue's handler", async () => {
    const jobs = await startJobs();
    const queue = jobQueue<{ n: number }>("test-handled");
    const seen: number[] = [];
    await jobs.work(queue, async (data) => void seen.push(data.n), { pollingIntervalSeconds: 0.5 });
    await jobs.send(queue, { n: 41 });
    await until(() => seen.length === 1);
    expect(seen).toEqual([41]);
  });

  it("keeps a job sent while no server handles it for the next server that does", async () => {
    const queue = jobQueue<{ id: string }>("test-restart");
    const before = await startJobs();
    await before.send(queue, { id: "kept" });
    await before.stop();
    const after = await startJobs();
    const seen: string[] = [];
    await after.work(queue, async (data) => void seen.push(data.id), {
      pollingIntervalSeconds: 0.5,
    });
    await until(() => seen.length === 1);
    expect(seen).toEqual(["kept"]);
  });

  it("runs each job once when two servers handle one queue", async () => {
    const queue = jobQueue<{ i: number }>("test-two-servers");
    const [a, b] = [await startJobs(), await startJobs()];
    const seen: number[] = [];
    const handler = async (data: { i: number }) => void seen.push(data.i);
    await a.work(queue, handler, { pollingIntervalSeconds: 0.5 });
    await b.work(queue, handler, { pollingIntervalSeconds: 0.5 });
    for (let i = 0; i < 20; i++) await a.send(queue, { i });
    await until(() => seen.length >= 20);
    // A little longer: a job handled twice would show up now.
    await new Promise((r) => setTimeout(r, 1_500));
    expect(seen.sort((x, y) => x - y)).toEqual([...Array(20).keys()]);
  });

  it("retries a job whose handler failed, as its queue says", async () => {
    const queue = jobQueue<{ k: string }>("test-retry", { retryLimit: 2, retryDelay: 0 });
    const jobs = await startJobs();
    let attempts = 0;
    await jobs.work(
      queue,
      async () => {
        attempts += 1;
        if (attempts < 3) throw new Error("not yet");
      },
      { pollingIntervalSeconds: 0.5 },
    );
    await jobs.send(queue, { k: "x" }, { retryLimit: 2, retryDelay: 0 });
    await until(() => attempts === 3);
    expect(attempts).toBe(3);
  });
});
