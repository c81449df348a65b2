import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";

/** Names of the shells npm runs scripts with (`sh -c`), which stand between npm and the server. */
const SHELLS = new Set(["sh", "dash", "bash", "zsh", "ksh", "ash", "busybox"]);

export interface Link {
  pid: number;
  /** The parent `pid` had when the server started; another one means that parent is gone. */
  ppid: number;
}

/** A process's parent and name: /proc on Linux, `ps` elsewhere; undefined once it is gone. */
function processInfo(pid: number): { ppid: number; name: string } | undefined {
  try {
    // "pid (name) state ppid ...": the name may hold spaces and parentheses, so split after it.
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const close = stat.lastIndexOf(")");
    const ppid = Number(stat.slice(close + 2).split(" ")[1]);
    return { ppid, name: stat.slice(stat.indexOf("(") + 1, close) };
  } catch {
    try {
      const line = execFileSync("ps", ["-o", "ppid=,comm=", "-p", String(pid)], {
        encoding: "utf8",
      }).trim();
      const [ppid = "", ...name] = line.split(/\s+/);
      return { ppid: Number(ppid), name: path.basename(name.join(" ")) };
    } catch {
      return undefined;
    }
  }
}

/**
 * The processes between this one and the npm that launched it: `npm start` execs node (npm is
 * the parent), while `npx assay start` runs it through `sh -c`, which outlives a killed npm. Empty
 * when not launched by npm (the built CLI run directly, by a shell or a service manager): then
 * this process is the top one, and the one its signals are sent to.
 */
export function launcherChain(): Link[] {
  if (process.env.npm_lifecycle_event === undefined) return [];
  const chain: Link[] = [{ pid: process.pid, ppid: process.ppid }];
  let pid = process.ppid;
  for (let info = processInfo(pid); info && SHELLS.has(info.name); info = processInfo(pid)) {
    chain.push({ pid, ppid: info.ppid });
    pid = info.ppid;
  }
  return chain;
}

/**
 * Calls `onGone` once npm, which started this server, has gone (killed, or its shell killed by a
 * signal it forwarded): a process manager that stops npm stops the server and its PostgreSQL
 * too, instead of leaving them holding the port. Checked every second, by parent ids only,
 * against the chain taken when the process began (npm may be gone before the server is up).
 */
export function watchLauncher(chain: Link[], onGone: () => void): void {
  if (chain.length === 0) return;
  const timer = setInterval(() => {
    const moved = chain.some(({ pid, ppid }) =>
      pid === process.pid ? process.ppid !== ppid : processInfo(pid)?.ppid !== ppid,
    );
    if (moved) {
      clearInterval(timer);
      onGone();
    }
  }, 1000);
  timer.unref();
}
