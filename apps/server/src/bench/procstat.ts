import { readdirSync, readFileSync } from "node:fs";

/*
 * CPU time from /proc/<pid>/stat (utime, stime and, for a parent, its reaped children), to tell
 * where an upload's wall time went: the server's Node process or PostgreSQL.
 */

const TICK_MS = 10; // USER_HZ is 100 on Linux

function statFields(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after "pid (comm) ": state is index 0, ppid 1, utime 11, stime 12, cutime 13, cstime 14.
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  } catch {
    return undefined;
  }
}

/** CPU milliseconds a process has used so far, all its threads. */
export function cpuMsOf(pid: number): number {
  const f = statFields(pid);
  return f ? (Number(f[11]) + Number(f[12])) * TICK_MS : 0;
}

/** CPU milliseconds of a PostgreSQL cluster: the postmaster, its live and its exited children. */
export function clusterCpuMs(postmasterPid: number): number {
  const own = statFields(postmasterPid);
  if (!own) return 0;
  let total = own.slice(11, 15).reduce((sum, v) => sum + Number(v), 0) * TICK_MS;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const f = statFields(Number(entry));
    if (f && Number(f[1]) === postmasterPid) total += (Number(f[11]) + Number(f[12])) * TICK_MS;
  }
  return total;
}
