/**
 * Formats a duration in milliseconds as hours, minutes and seconds ("1h 2m 3s"), the form the
 * spec uses for every total time. Units that are zero are left out, except a lone "0s".
 */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return "–";
  const totalSeconds = Math.round(ms / 1000);
  const hours = Math.floor(totalSeconds / 3600);
  const minutes = Math.floor((totalSeconds % 3600) / 60);
  const seconds = totalSeconds % 60;
  const parts: string[] = [];
  if (hours > 0) parts.push(`${hours}h`);
  if (minutes > 0) parts.push(`${minutes}m`);
  if (seconds > 0 || parts.length === 0) parts.push(`${seconds}s`);
  return parts.join(" ");
}

/**
 * A test's time where tenths of a second matter (a test slower by 0.6 s): "1.6s" under a
 * minute, formatDuration's form from a minute on.
 */
export function formatTestTime(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return "–";
  return ms < 59_950 ? `${(ms / 1000).toFixed(1)}s` : formatDuration(ms);
}

/**
 * How long a run took on the clock: from its first test's start to its last test's end (the
 * run's started_at and finished_at, which span every attempt). null while it is unknown: a run
 * still open, or one without timestamps. Its duration_ms is another figure, the tests' times
 * summed, which parallel runners make longer than the run.
 */
export function runWallClockMs(run: {
  started_at: string | null;
  finished_at: string | null;
}): number | null {
  if (!run.started_at || !run.finished_at) return null;
  const ms = Date.parse(run.finished_at) - Date.parse(run.started_at);
  return Number.isFinite(ms) && ms >= 0 ? ms : null;
}
