import type pg from "pg";

/** Polls `probe` every 100 ms until it answers something; fails naming `what` after the timeout. */
export async function until<T>(
  what: string,
  probe: () => T | undefined | Promise<T | undefined>,
  timeoutMs = 60_000,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Until the backend with process id `pid` waits for a lock (another session holds it). */
export function untilWaitingOnLock(pool: pg.Pool, pid: number, what: string): Promise<true> {
  return until(what, async () => {
    const { rows } = await pool.query(
      "SELECT 1 FROM pg_stat_activity WHERE pid = $1 AND wait_event_type = 'Lock'",
      [pid],
    );
    return rows.length > 0 ? true : undefined;
  });
}
