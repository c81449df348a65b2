import { createReadStream, createWriteStream } from "node:fs";
import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { once } from "node:events";
import { countNdjsonLines } from "../modules/harmonization/connectors/ndjson.js";
import { say } from "./output.js";

/**
 * `node apps/server/dist/bench/dh-ndjson-bench.js [MiB]`: counts the lines of a generated NDJSON
 * file (1 GiB by default) with the connectors' streaming counter, and reports the rate and the
 * process's peak RSS above its RSS before counting (the counter must stay flat, whatever the
 * size). Target: >= 300 MB/s on one core.
 */

const LINE = `${JSON.stringify({ resourceType: "Observation", id: "obs-0000000", status: "final", code: { text: "Heart rate" }, valueQuantity: { value: 72, unit: "beats/minute" } })}\n`;

async function writeFile(file: string, bytes: number): Promise<number> {
  const block = Buffer.from(LINE.repeat(Math.floor((1 << 20) / LINE.length)));
  const out = createWriteStream(file);
  let written = 0;
  while (written < bytes) {
    if (!out.write(block)) await once(out, "drain");
    written += block.length;
  }
  out.end();
  await once(out, "finish");
  return (written / block.length) * (block.length / LINE.length);
}

async function main() {
  const mib = Number(process.argv[2] ?? 1024);
  const dir = await mkdtemp(path.join(tmpdir(), "assay-dh-bench-"));
  try {
    const file = path.join(dir, "big.ndjson");
    const expected = await writeFile(file, mib * 1024 * 1024);
    const { size } = await stat(file);
    global.gc?.();
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    const started = performance.now();
    const lines = await countNdjsonLines(createReadStream(file, { highWaterMark: 1 << 20 }));
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    if (lines !== expected) throw new Error(`counted ${lines} lines, expected ${expected}`);
    const rate = size / 1e6 / seconds;
    say(
      `NDJSON count: ${(size / 1e6).toFixed(0)} MB, ${lines.toLocaleString("en-US")} lines in ${seconds.toFixed(2)} s = ${rate.toFixed(0)} MB/s (target >= 300: ${rate >= 300 ? "PASS" : "FAIL"}); peak RSS +${((peak - before) / 1e6).toFixed(1)} MB over ${(before / 1e6).toFixed(0)} MB`,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
