// `npm run dev`: the developer loop in one terminal. TypeScript rebuilds on change (tsc -b
// --watch), Node restarts the server when its build changes (node --watch, on PORT, 8080 by
// default), and Vite serves the web app with hot reload on http://localhost:5173, proxying the
// API to the server (apps/web/vite.config.ts). Ctrl-C stops all three.
import { spawn, spawnSync } from "node:child_process";

// The first build, so that the server starts from a complete dist/.
const built = spawnSync("npx", ["tsc", "-b"], { stdio: "inherit" });
if (built.status !== 0) process.exit(built.status ?? 1);

const parts = [
  ["tsc", "npx", ["tsc", "-b", "--watch", "--preserveWatchOutput"]],
  ["server", process.execPath, ["--watch", "apps/cli/dist/main.js", "start"]],
  ["web", "npm", ["run", "dev", "-w", "@assay/web"]],
];

const children = parts.map(([name, command, args]) => {
  const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"] });
  for (const stream of [child.stdout, child.stderr]) {
    let rest = "";
    stream.setEncoding("utf8");
    stream.on("data", (text) => {
      const lines = (rest + text).split("\n");
      rest = lines.pop() ?? "";
      for (const line of lines) console.log(`[${name}] ${line}`);
    });
  }
  child.on("exit", (code, signal) => {
    console.log(`[${name}] stopped (${signal ?? `exit ${code}`})`);
    stopAll();
  });
  return child;
});

let stopping = false;
function stopAll() {
  if (stopping) return;
  stopping = true;
  for (const child of children) if (child.exitCode === null) child.kill("SIGTERM");
}
process.on("SIGINT", stopAll);
process.on("SIGTERM", stopAll);
