import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";

/** Names of the shells npm runs scripts with (`sh -c`), which stand between npm and the server. */
const SHELLS = new Set(["sh", "dash", "bash", "zsh", "ksh", "ash", "busybox"]);

export interface Link {
  pid: number;
  /** The parent `pid` had when the server started; another one means that parent is gone. */
  ppid: number;
  /** A shell's wakeups when the server started (see wakeups); undefined for the server itself. */
  wakeups?: number | undefined;
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
 * How many times a process has gone to sleep (Linux's voluntary context switches); undefined
 * without /proc. A shell running Assay sleeps in wait() until its command ends, so this counts up
 * only when a signal the shell catches wakes it: SIGINT (see watchLauncher), or SIGCHLD when Assay
 * itself is stopped and continued.
 */
function wakeups(pid: number): number | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const match = /^voluntary_ctxt_switches:\s*(\d+)$/m.exec(status);
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
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
    chain.push({ pid, ppid: info.ppid, wakeups: wakeups(pid) });
    pid = info.ppid;
  }
  return chain;
}

export interface LauncherEvents {
  /** npm is gone: killed, or its shell killed by a signal npm passed on. */
  gone: () => void;
  /** npm passed a SIGINT on to the shell it runs Assay in, which keeps it (see watchLauncher). */
  interrupted: () => void;
}

/**
 * Follows the npm that started this server, every second, against the chain taken when the
 * process began (npm may act before the server is up), so that a process manager that signals or
 * kills npm alone stops the server and its PostgreSQL too, instead of leaving them on the port.
 * Returns a function that stops following.
 *
 * npm passes SIGINT and SIGTERM on to its child only: for `npx assay start` that is `sh -c`. A
 * SIGTERM ends the shell, and npm with it (`gone`). A SIGINT does not: a non-interactive shell
 * catches it and waits for its command to end before it ends itself, as a shell does when Ctrl-C
 * reaches the whole terminal group, Assay included; here nothing else received it. What can be
 * seen from outside is that the shell woke: it sleeps in wait() otherwise, and only a SIGINT or a
 * stop and continue of Assay (SIGCHLD) wakes it. A wake that follows no SIGCONT of this process,
 * checked again a second later (the two signals arrive together), is taken as `interrupted`.
 * Known limit: SIGTSTP sent to a process group without a terminal stops nothing but wakes the
 * shell too, and is taken for SIGINT (a terminal's Ctrl-Z stops the group: then fg's SIGCONT
 * tells them apart; so does SIGSTOP then SIGCONT).
 */
export function watchLauncher(chain: Link[], events: LauncherEvents): () => void {
  if (chain.length === 0) return () => {};
  const shells = chain.filter((link) => link.wakeups !== undefined);
  let continuedAt = -Infinity;
  const onContinue = () => (continuedAt = Date.now());
  if (shells.length > 0) process.on("SIGCONT", onContinue);
  let wokenAt: number | undefined;
  const stop = () => {
    clearInterval(timer);
    process.off("SIGCONT", onContinue);
  };
  const timer = setInterval(() => {
    const moved = chain.some(({ pid, ppid }) =>
      pid === process.pid ? process.ppid !== ppid : processInfo(pid)?.ppid !== ppid,
    );
    if (moved) {
      stop();
      return events.gone();
    }
    if (wokenAt === undefined) {
      if (shells.some((link) => (wakeups(link.pid) ?? 0) > link.wakeups!)) wokenAt = Date.now();
      return;
    }
    if (continuedAt >= wokenAt - 2000) {
      // Stopped and continued (Ctrl-Z, then fg): not a request to stop. Count from here.
      for (const link of shells) link.wakeups = wakeups(link.pid) ?? link.wakeups;
      wokenAt = undefined;
      return;
    }
    stop();
    events.interrupted();
  }, 1000);
  timer.unref();
  return stop;
}
