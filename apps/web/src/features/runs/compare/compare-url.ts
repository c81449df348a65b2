/** The Compare screen of two runs: what changed from `a` (earlier) to `b`. */
export function diffHref(a: string, b: string): string {
  return `/diff/${encodeURIComponent(a)}/${encodeURIComponent(b)}`;
}

/** The load trend screen of a load run's job, up to that run. */
export function trendHref(key: string): string {
  return `/load-trends/${encodeURIComponent(key)}`;
}
