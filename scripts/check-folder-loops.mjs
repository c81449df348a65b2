// Part of `npm run check`: no two folders of product code import each other, directly or round
// a longer loop (tests and test helpers aside). A folder's use of a folder that encloses it (a
// feature's part using the feature's hooks) is not counted. Each package's src/ itself is left
// out: it holds
// the composition root (app.ts, server.ts, which import every module) and shared leaves
// (errors.ts, config.ts) that every module imports. Within and across folders, no two files
// import each other either (a file loop: the demo's planners once shared types that way). Reads
// import specifiers as text, `import type` included, so a loop of types counts too.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

const ROOTS = ["apps/server/src", "apps/cli/src", "apps/web/src", "packages/core/src"];
const files = execFileSync(
  "git",
  ["ls-files", "--cached", "--others", "--exclude-standard", ...ROOTS],
  {
    encoding: "utf8",
  },
)
  .split("\n")
  .filter((f) => /\.(ts|tsx)$/.test(f) && existsSync(f))
  .filter((f) => !/\.test\.tsx?$/.test(f) && !f.includes("/test/"));

const SPECIFIER = /(?:from|import)\s*\(?\s*["'](\.{1,2}\/[^"']+)["']/g;
const edges = new Map(); // folder -> Map(folder -> example "file -> file")
const isRoot = (dir) => ROOTS.includes(dir);

function resolve(from, spec) {
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(from), spec));
  const stem = base.replace(/\.js$/, "");
  for (const candidate of [base, `${stem}.ts`, `${stem}.tsx`, `${stem}/index.ts`]) {
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

const fileEdges = new Map(); // file -> Map(file -> example)
for (const file of files) {
  fileEdges.set(file, new Map());
  for (const [, spec] of readFileSync(file, "utf8").matchAll(SPECIFIER)) {
    const target = resolve(file, spec);
    if (!target) continue;
    if (target !== file) fileEdges.get(file).set(target, `${file} -> ${target}`);
    const a = path.posix.dirname(file);
    const b = path.posix.dirname(target);
    if (a === b || isRoot(a) || isRoot(b) || a.startsWith(`${b}/`)) continue;
    if (!edges.has(a)) edges.set(a, new Map());
    if (!edges.get(a).has(b)) edges.get(a).set(b, `${file} -> ${target}`);
  }
}

/** Tarjan's strongly connected components: a component of two or more nodes is a loop. */
function loopsOf(graph) {
  let index = 0;
  const stack = [];
  const info = new Map();
  const loops = [];
  function visit(v) {
    info.set(v, { index, low: index, onStack: true });
    index++;
    stack.push(v);
    for (const w of graph.get(v)?.keys() ?? []) {
      if (!info.has(w)) {
        visit(w);
        info.get(v).low = Math.min(info.get(v).low, info.get(w).low);
      } else if (info.get(w).onStack) {
        info.get(v).low = Math.min(info.get(v).low, info.get(w).index);
      }
    }
    if (info.get(v).low === info.get(v).index) {
      const component = [];
      let w;
      do {
        w = stack.pop();
        info.get(w).onStack = false;
        component.push(w);
      } while (w !== v);
      if (component.length > 1) loops.push(component);
    }
  }
  for (const v of graph.keys()) if (!info.has(v)) visit(v);
  return loops;
}

function report(kind, graph) {
  const loops = loopsOf(graph);
  for (const loop of loops) {
    console.error(`${kind} loop: ${loop.join(" <-> ")}`);
    for (const a of loop) {
      for (const [b, example] of graph.get(a) ?? [])
        if (loop.includes(b)) console.error(`  ${example}`);
    }
  }
  return loops.length;
}

const failed = report("folder", edges) + report("file", fileEdges);
if (failed > 0) process.exit(1);
console.log(`import loops: none (${files.length} files; ${edges.size} folders that import others)`);
