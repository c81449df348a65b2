import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/*
 * Summary of a V8 CPU profile (node --cpu-prof) over a time window: self time by area (package,
 * Assay module, Node internals, GC, idle) and by function. Time in V8 builtins (regular
 * expressions, JSON, string ops) is charged to the JavaScript function that called them.
 */

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileSummary {
  /** Sampled wall time in the window, ms. */
  windowMs: number;
  /** Time not idle: the thread was running JavaScript, GC or native code. */
  busyMs: number;
  byArea: [string, number][];
  byFunction: [string, number][];
  /** False when no sample fell in the window and the whole profile was used. */
  windowed: boolean;
}

const SPECIAL = new Set(["(garbage collector)", "(idle)", "(program)", "(root)"]);

function areaOf(frame: ProfileNode["callFrame"]): string {
  const { functionName: name, url } = frame;
  if (name === "(garbage collector)") return "GC";
  if (name === "(idle)") return "idle (waiting on I/O, PostgreSQL)";
  // A piscina worker blocks in Atomics.wait between tasks: the profiler sees a running function.
  if (name === "atomicsWaitLoop" && url.includes("/piscina/"))
    return "idle (worker waiting for a task)";
  if (name === "(program)" || name === "(root)") return "V8 / native (program)";
  if (!url) return "V8 builtins";
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1];
  if (pkg) return pkg;
  const assay = /\/dist\/(.+)\.js$/.exec(url)?.[1];
  if (assay) return `assay ${assay.replace(/^modules\//, "")}`;
  const internal = /^node:(?:internal\/)?([^/]+)/.exec(url)?.[1];
  return internal ? `node ${internal}` : url;
}

function labelOf(frame: ProfileNode["callFrame"]): string {
  const file = frame.url ? path.basename(frame.url.replace(/^file:\/\//, "")) : "";
  const name = frame.functionName || "(anonymous)";
  return file ? `${name} (${file}:${frame.lineNumber + 1})` : name;
}

function add(map: Map<string, number>, key: string, value: number): void {
  map.set(key, (map.get(key) ?? 0) + value);
}

/** A thread's profile: node --cpu-prof writes one per thread, named CPU.<date>.<time>.<pid>.<thread>.<n>. */
export interface ThreadProfile {
  thread: string;
  profile: CpuProfile;
}

/** Reads every .cpuprofile in `dir`: the main thread's first, then the parse workers'. */
export function readThreadProfiles(dir: string): ThreadProfile[] {
  const files = readdirSync(dir).filter((f) => f.endsWith(".cpuprofile"));
  if (files.length === 0) throw new Error(`no .cpuprofile written in ${dir}`);
  const threadOf = (file: string) => Number(file.split(".")[4] ?? 0);
  return files
    .sort((a, b) => threadOf(a) - threadOf(b))
    .map((file) => ({
      thread: threadOf(file) === 0 ? "main thread" : `worker thread ${threadOf(file)}`,
      profile: JSON.parse(readFileSync(path.join(dir, file), "utf8")) as CpuProfile,
    }));
}

/**
 * Sums the samples that fall between `fromUs` and `toUs` (CLOCK_MONOTONIC microseconds, the
 * clock of process.hrtime and of V8's profiler on Linux).
 */
export function summarizeProfile(
  profile: CpuProfile,
  fromUs: number,
  toUs: number,
): ProfileSummary {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parent.set(child, node.id);
  // A builtin (no URL) is charged to its nearest caller with a URL.
  const charged = (id: number): ProfileNode => {
    let node = byId.get(id)!;
    while (!node.callFrame.url && !SPECIAL.has(node.callFrame.functionName)) {
      const up = byId.get(parent.get(node.id) ?? -1);
      if (!up || SPECIAL.has(up.callFrame.functionName)) break;
      node = up;
    }
    return node;
  };
  const pick = (inWindow: boolean) => {
    const byArea = new Map<string, number>();
    const byFunction = new Map<string, number>();
    let t = profile.startTime;
    let total = 0;
    profile.samples.forEach((id, i) => {
      const delta = profile.timeDeltas[i] ?? 0;
      t += delta;
      if (inWindow && (t < fromUs || t > toUs)) return;
      const node = charged(id);
      const ms = delta / 1000;
      total += ms;
      add(byArea, areaOf(node.callFrame), ms);
      if (!SPECIAL.has(node.callFrame.functionName) && !areaOf(node.callFrame).startsWith("idle"))
        add(byFunction, labelOf(node.callFrame), ms);
    });
    return { byArea, byFunction, total };
  };
  let windowed = true;
  let picked = pick(true);
  if (picked.total === 0) {
    windowed = false;
    picked = pick(false);
  }
  const sorted = (m: Map<string, number>) => [...m.entries()].sort((a, b) => b[1] - a[1]);
  const idle = [...picked.byArea.entries()]
    .filter(([k]) => k.startsWith("idle"))
    .reduce((sum, [, t]) => sum + t, 0);
  return {
    windowMs: picked.total,
    busyMs: picked.total - idle,
    byArea: sorted(picked.byArea),
    byFunction: sorted(picked.byFunction).slice(0, 15),
    windowed,
  };
}
