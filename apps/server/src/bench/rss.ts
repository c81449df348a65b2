import { readFileSync, writeFileSync } from "node:fs";

/** VmRSS and VmHWM (peak) of a process, in bytes, from /proc/<pid>/status. */
export function memoryOf(pid: number): { rss: number; hwm: number } | undefined {
  let status: string;
  try {
    status = readFileSync(`/proc/${pid}/status`, "utf8");
  } catch {
    return undefined;
  }
  const kb = (field: string) =>
    Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1]);
  return { rss: kb("VmRSS") * 1024, hwm: kb("VmHWM") * 1024 };
}

/**
 * Samples a process's resident memory while something runs. The kernel's peak (VmHWM) is reset
 * first (writing 5 to clear_refs), so the peak read at the end belongs to this measurement; where
 * that is not allowed, the highest sample (every 10 ms) stands in for it.
 */
export class PeakRss {
  private timer: NodeJS.Timeout | undefined;
  private sampled = 0;
  private resetWorked = false;
  /** RSS when sampling started. */
  baseline = 0;

  constructor(private readonly pid: number) {}

  start(): void {
    try {
      writeFileSync(`/proc/${this.pid}/clear_refs`, "5");
      this.resetWorked = true;
    } catch {
      this.resetWorked = false;
    }
    this.baseline = memoryOf(this.pid)?.rss ?? 0;
    this.sampled = this.baseline;
    this.timer = setInterval(() => {
      const rss = memoryOf(this.pid)?.rss ?? 0;
      if (rss > this.sampled) this.sampled = rss;
    }, 10);
  }

  /** The peak RSS since start(), in bytes. */
  stop(): number {
    clearInterval(this.timer);
    const hwm = memoryOf(this.pid)?.hwm ?? 0;
    return this.resetWorked ? Math.max(hwm, this.sampled) : this.sampled;
  }
}
