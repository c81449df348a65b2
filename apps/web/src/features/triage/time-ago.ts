const DAY_MS = 86_400_000;

/** "today", "yesterday", "3 days ago": how long ago a failure was first seen. */
export function daysAgo(iso: string, now = Date.now()): string {
  const days = Math.floor((now - new Date(iso).getTime()) / DAY_MS);
  if (days <= 0) return "today";
  return days === 1 ? "yesterday" : `${days} days ago`;
}
